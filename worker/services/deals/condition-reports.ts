/**
 * Condition reports (api-contract "Reviews and condition reports"; docs/decisions/040): the renter's
 * move-in and move-out walk, room by room, with photos in private evidence storage. Sending one and the
 * lister's comment are transitions of the declared process (contract/deal-process.ts); the server's
 * receipt time is the proof, so a report arriving after its window is refused (409), whenever it was begun.
 */
import { evidenceNameOf } from "../../contract/evidence";
import {
  CONDITION_PHASES,
  PROBLEM_CONDITIONS,
  REVIEW_MESSAGES as R,
  conditionWindow,
  inConditionWindow,
  type ConditionPhase,
  type ConditionReport,
  type ConditionReportInput,
  type ConditionReportsResponse,
  type ConditionRoom,
  type RoomCondition,
} from "../../contract/reviews";
import { TRANSITION, dealMoment, refusal, type Actor } from "../../contract/deal-process";
import { primaryOf, type Db } from "../../db/client";
import { commentStatement, conditionReportsOfDeal, insertConditionReportStatement, type ConditionReportRow } from "../../db/queries/condition-reports";
import { eventStatement, findDeal, type DealRow } from "../../db/queries/deals";
import { evidenceReceivedAt } from "../../db/queries/evidence";
import { apiError, conflict, notFound } from "../../lib/errors";
import type { RequestMeta } from "../../lib/request-meta";
import { isoNow } from "../../lib/time";
import { partyDeal } from ".";
import { transition, type Effects } from "./process";

const reportAt = (d: DealRow, phase: ConditionPhase) => (phase === "move_in" ? d.move_in_report_at : d.move_out_report_at);
const commentAt = (d: DealRow, phase: ConditionPhase) => (phase === "move_in" ? d.move_in_comment_at : d.move_out_comment_at);

/**
 * Why `as` cannot send the `phase` report now: the declaration's refusal (state, actor, claim), then the
 * phase's own rule in words (sent already: read-only; outside its window, named), or null.
 */
export function conditionReportRefusal(d: DealRow, as: Actor, phase: ConditionPhase, nowMs: number): { status: 403 | 409; detail: string } | null {
  const declared = refusal("condition_report", d, { now: nowMs, as });
  const stateAndActorFit = TRANSITION.condition_report.from.includes(d.status) && TRANSITION.condition_report.actors.includes(as);
  if (declared && (!stateAndActorFit || declared.status === 403 || d.claim_id)) return declared;
  if (reportAt(d, phase)) return { status: 409, detail: R.reportExists(phase) };
  if (!inConditionWindow(phase, d, nowMs)) {
    const w = conditionWindow(phase, d);
    return { status: 409, detail: R.reportWindow(phase, dealMoment(isoNow(w.opens), d.time_zone), dealMoment(isoNow(w.closes), d.time_zone)) };
  }
  return declared;
}

interface StoredRoom {
  name: string;
  condition: RoomCondition;
  note: string;
  photos: string[];
}

/**
 * The renter's report of `input.phase` (201): 409 when that phase was sent already (read-only) or the
 * server receives it outside its window (the detail says the window); photos are the renter's own evidence
 * (checked by the route).
 */
export async function sendConditionReport(db: Db, fx: Effects, user: { id: string }, dealId: string, input: ConditionReportInput, meta: RequestMeta, nowMs = Date.now()): Promise<ConditionReport> {
  const { phase } = input;
  const at = isoNow(nowMs);
  const rooms: StoredRoom[] = input.rooms.map((r) => ({ name: r.name, condition: r.condition, note: r.note, photos: [...new Set(r.photos)] }));
  const photos = [...new Set(rooms.flatMap((r) => r.photos))];
  const problemRooms = rooms.filter((r) => PROBLEM_CONDITIONS.includes(r.condition)).length;
  await transition(
    db,
    fx,
    dealId,
    "condition_report",
    { user: user.id },
    (d, as) => {
      // The phase's own rule (the declaration's guard says only that some report is open now).
      const no = conditionReportRefusal(d, as, phase, nowMs);
      if (no) throw apiError(no.status, { detail: no.detail });
      return {
        set: phase === "move_in" ? { move_in_report_at: at } : { move_out_report_at: at },
        statements: [
          insertConditionReportStatement({ dealId: d.id, phase, authorId: user.id, rooms: JSON.stringify(rooms), photos: JSON.stringify(photos), at }),
          eventStatement(d.id, { type: "condition_report", details: { phase, rooms: rooms.length, problem_rooms: problemRooms }, actorId: user.id, actorRole: "renter", at, ip: meta.ip, userAgent: meta.userAgent }),
        ],
        noticeFacts: { phase },
      };
    },
    nowMs,
  );
  const report = (await reportsOf(primaryOf(db), dealId)).find((r) => r.phase === phase);
  return report!;
}

/** The lister's one comment on a report (201); 409 without a report of that phase or after the first comment. */
export async function commentConditionReport(db: Db, fx: Effects, user: { id: string }, dealId: string, phase: ConditionPhase, text: string, meta: RequestMeta, nowMs = Date.now()): Promise<ConditionReport> {
  const at = isoNow(nowMs);
  await transition(
    db,
    fx,
    dealId,
    "condition_report_comment",
    { user: user.id },
    (d) => {
      if (!reportAt(d, phase)) throw conflict(R.noReport(phase));
      if (commentAt(d, phase)) throw conflict(R.alreadyCommented);
      return {
        set: phase === "move_in" ? { move_in_comment_at: at } : { move_out_comment_at: at },
        statements: [
          commentStatement(d.id, phase, text, at),
          eventStatement(d.id, { type: "condition_report_comment", details: { phase }, actorId: user.id, actorRole: "lister", at, ip: meta.ip, userAgent: meta.userAgent }),
        ],
      };
    },
    nowMs,
  );
  return (await reportsOf(primaryOf(db), dealId)).find((r) => r.phase === phase)!;
}

/** A deal's reports with each photo's receipt time. */
async function reportsOf(db: Db, dealId: string): Promise<ConditionReport[]> {
  const rows = await conditionReportsOfDeal(db, dealId);
  const stored = rows.map((row) => ({ row, rooms: parseRooms(row) }));
  const received = await evidenceReceivedAt(db, [...new Set(stored.flatMap((s) => s.rooms.flatMap((r) => r.photos.map(evidenceNameOf))))]);
  return stored.map(({ row, rooms }) => {
    const answered: ConditionRoom[] = rooms.map((r) => ({
      name: r.name,
      condition: r.condition,
      note: r.note,
      // A photo's receipt time is its upload's; one whose record is gone keeps the report's.
      photos: r.photos.map((url) => ({ url, received_at: received.get(evidenceNameOf(url)) ?? row.created_at })),
    }));
    return {
      deal_id: row.deal_id,
      phase: row.phase,
      rooms: answered,
      created_at: row.created_at,
      received_at: row.created_at,
      author_id: row.author_id,
      comment: row.comment_text && row.comment_at ? { text: row.comment_text, created_at: row.comment_at } : null,
      has_problem: answered.some((r) => PROBLEM_CONDITIONS.includes(r.condition)),
    };
  });
}

function parseRooms(row: ConditionReportRow): StoredRoom[] {
  try {
    const parsed: unknown = JSON.parse(row.rooms);
    return Array.isArray(parsed) ? (parsed as StoredRoom[]) : [];
  } catch {
    return [];
  }
}

/** The reports of a deal, to its parties and staff (404 to anyone else), with each phase's window. */
export async function conditionReportsFor(db: Db, viewer: { userId: string } | { staff: string }, dealId: string): Promise<ConditionReportsResponse & { deal: DealRow }> {
  const deal = "userId" in viewer ? (await partyDeal(db, dealId, viewer.userId)).deal : await findDeal(db, dealId);
  if (!deal) throw notFound("Deal not found");
  const windows = Object.fromEntries(
    CONDITION_PHASES.map((phase) => {
      const w = conditionWindow(phase, deal);
      return [phase, { opens: isoNow(w.opens), closes: isoNow(w.closes) }];
    }),
  ) as ConditionReportsResponse["windows"];
  return { data: await reportsOf(db, dealId), windows, deal };
}
