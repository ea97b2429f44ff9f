/**
 * The deal's process, walked whole (docs/decisions/035): every state x every declared transition x every
 * actor through the engine (allowed or refused as declared, refused before any plan runs, nothing written),
 * then every state x every route a party or staff calls x every caller through the real routes: a call
 * succeeds exactly when the Deal's `actions` (as that caller reads it) names it, and a refused call
 * answers the declaration's status and changes nothing.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { DEAL_ACTORS, DEAL_TRANSITIONS, MONEY_NOTICES, chooseTransition, refusal, type Actor, type TransitionName } from "../../../worker/contract/deal-process";
import { DEAL_NOTICE_RULES } from "../../../worker/services/notify/deal-notices";
import { DEAL_STATUSES, type DealAction, type DealStatus } from "../../../worker/contract/deals";
import { createDb } from "../../../worker/db/client";
import { findDeal } from "../../../worker/db/queries/deals";
import { transition, type ActorRef } from "../../../worker/services/deals/process";
import { adminLogin, api, authed, dealRow, insertParty, insertSignedDeal, json, readyPayouts } from "../helpers";

const DAY = 86_400_000;
const NOW = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();
const date = (ms: number) => iso(ms).slice(0, 10);
const AGREEMENT_TEXT = "SUBLEASE AGREEMENT (model test)";
let agreementSha = "";

/** What each state looks like in a typical deal (so each guard reads real facts). */
const FACTS: Record<DealStatus, Record<string, string | number | null>> = {
  requested: { agreement_version: 0, landlord_consent: "none", renter_signed_at: null, lister_signed_at: null, expires_at: iso(NOW + DAY) },
  accepted: { landlord_consent: "not_needed", renter_signed_at: null, lister_signed_at: null, expires_at: iso(NOW + 30 * DAY) },
  signed: { expires_at: iso(NOW + 30 * DAY) },
  paid: { payment_status: "held", paid_at: iso(NOW - 3 * DAY), held_until: iso(NOW - 3_600_000) },
  moved_in: { payment_status: "held", paid_at: iso(NOW - 3 * DAY), held_until: iso(NOW + DAY), moved_in_at: iso(NOW - 3_600_000) },
  disputed: { payment_status: "disputed", paid_at: iso(NOW - 3 * DAY), case_reason: "problem", problem_kind: "other", problem_opened_at: iso(NOW - DAY) },
  // Both reviews written and revealed (docs/decisions/040): each party may reply, neither review again.
  released: {
    payment_status: "released",
    paid_at: iso(NOW - 5 * DAY),
    released_at: iso(NOW - DAY),
    transferred_cents: 90_000,
    transfer_id: "tr_model",
    review_window_ends_at: iso(NOW + 13 * DAY),
    renter_reviewed_at: iso(NOW - 2 * 3_600_000),
    lister_reviewed_at: iso(NOW - 2 * 3_600_000),
    reviews_revealed_at: iso(NOW - 3_600_000),
  },
  refunded: { payment_status: "refunded", paid_at: iso(NOW - 5 * DAY), refund_due_cents: 94_500, refunded_cents: 94_500 },
  cancelled: { payment_status: "none", status_reason: "cancelled_by_renter" },
  declined: { status_reason: "declined" },
  expired: { status_reason: "request_expired" },
};
const PAID = new Set<DealStatus>(["paid", "moved_in", "disputed", "released", "refunded"]);

let renter: { id: string; token: string };
let lister: { id: string; token: string };
let stranger: { id: string; token: string };
let admin: string;

beforeAll(async () => {
  [renter, lister, stranger] = await Promise.all([insertParty("Rory"), insertParty("Lia"), insertParty("Sam")]);
  await readyPayouts(lister.id);
  admin = await adminLogin();
  agreementSha = [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(AGREEMENT_TEXT)))].map((x) => x.toString(16).padStart(2, "0")).join("");
});

/** A deal in `status` with the facts above (move-in two days ago: the keys are possible). */
async function dealIn(status: DealStatus, parties: { renter: { id: string }; lister: { id: string } } = { renter, lister }) {
  const { dealId } = await insertSignedDeal(parties.renter.id, parties.lister.id, { moveIn: date(NOW - 2 * DAY), moveOut: date(NOW + 90 * DAY), listing: { from: "2020-01-01", to: "2040-12-31" }, status });
  const facts: Record<string, string | number | null> = {
    ...(PAID.has(status) ? { paid_cents: 94_500, paid_rent_cents: 90_000, payment_intent_id: `pi_${dealId}`, charge_id: `ch_${dealId}` } : {}),
    ...FACTS[status],
  };
  const cols = Object.keys(facts);
  await env.DB.batch([
    env.DB.prepare(`UPDATE deals SET ${cols.map((c) => `${c} = ?`).join(", ")} WHERE id = ?`).bind(...Object.values(facts), dealId),
    // The agreement both read (a request has none yet).
    ...(status === "requested" ? [] : [env.DB.prepare("INSERT INTO deal_agreements (deal_id, version, template, text, sha256, created_at) VALUES (?, 1, 'model', ?, ?, ?)").bind(dealId, AGREEMENT_TEXT, agreementSha, iso(NOW))]),
    // The two reviews its facts say were written and revealed.
    ...(status === "released"
      ? (["renter", "lister"] as const).map((role) =>
          env.DB.prepare("INSERT INTO reviews (id, deal_id, author_id, subject_id, role, rating, text, created_at, revealed_at) VALUES (?, ?, ?, ?, ?, 5, 'Lovely', ?, ?)").bind(
            `${role[0]}${dealId.slice(-20)}`,
            dealId,
            role === "renter" ? parties.renter.id : parties.lister.id,
            role === "renter" ? parties.lister.id : parties.renter.id,
            role,
            iso(NOW - 2 * 3_600_000),
            iso(NOW - 3_600_000),
          ),
        )
      : []),
  ]);
  return dealId;
}

const actorRef = (a: Actor | "stranger"): ActorRef =>
  a === "renter" ? { user: renter.id } : a === "lister" ? { user: lister.id } : a === "stranger" ? { user: stranger.id } : { role: a };

describe("the notices about money", () => {
  it("are read from the process (a money effect, or Stripe's event): every payment step, never a request's or a review's; those always go", () => {
    expect([...MONEY_NOTICES].sort()).toEqual(
      [
        "deal_paid",
        "deal_payment_refused",
        "deal_duplicate_refunded",
        "deal_released",
        "deal_problem",
        "deal_cancellation_asked",
        "deal_cancelled_paid",
        "deal_cancellation_decided",
        "deal_resolved",
        "deal_frozen",
        "deal_card_dispute",
        "deal_refunded",
      ].sort(),
    );
    for (const [kind, rule] of Object.entries(DEAL_NOTICE_RULES)) expect(rule.transactional, kind).toBe(MONEY_NOTICES.has(kind as never));
    expect(DEAL_NOTICE_RULES.deal_requested.transactional).toBe(false);
    expect(DEAL_NOTICE_RULES.deal_stay_taken.transactional).toBe(false);
  });
});

describe("the engine refuses what the declaration does not allow, before any plan runs", () => {
  it.each(DEAL_STATUSES)("from %s: every transition, every actor", async (status) => {
    const db = createDb(env);
    const id = await dealIn(status);
    let checked = 0;
    for (const t of DEAL_TRANSITIONS) {
      for (const who of [...DEAL_ACTORS, "stranger"] as const) {
        const before = (await findDeal(db, id))!;
        const expected = who === "stranger" ? { status: 404 } : refusal(t.name as TransitionName, before, { now: NOW, as: who });
        let planned = false;
        const outcome = await transition(db, null, id, t.name as TransitionName, actorRef(who), () => ((planned = true), { set: {} }), NOW).then(
          () => 200,
          (err: unknown) => (err as { status?: number }).status ?? 500,
        );
        const after = (await findDeal(db, id))!;
        const label = `${t.name} as ${who} from ${status}`;
        if (expected) {
          expect(outcome, label).toBe(expected.status);
          expect(planned, `${label}: no plan runs`).toBe(false);
          expect(after.version, `${label}: nothing written`).toBe(before.version);
        } else {
          expect(outcome, label).toBe(200);
          expect(planned, label).toBe(true);
          expect(after.version, label).toBe(before.version + 1);
        }
        checked++;
      }
    }
    expect(checked).toBe(DEAL_TRANSITIONS.length * (DEAL_ACTORS.length + 1));
  }, 120_000);

  it("a claim refuses every other transition of the deal (409) but those declared as allowed meanwhile", async () => {
    const db = createDb(env);
    const id = await dealIn("disputed");
    await env.DB.prepare("UPDATE deals SET claim_id = 'attempt-x', claim_op = 'resolve', claim_input = '{}', claim_at = ? WHERE id = ?").bind(iso(NOW), id).run();
    const statement = await transition(db, null, id, "statement", { user: lister.id }, () => ({ set: {} }), NOW).then(() => 200, (e: { status?: number }) => e.status);
    expect(statement).toBe(200);
    const resolve = await transition(db, null, id, "resolve", { role: "staff" }, () => ({ set: {} }), NOW).then(() => 200, (e: { status?: number }) => e.status);
    expect(resolve).toBe(409);
    // Only the claim's holder settles it.
    const other = await transition(db, null, id, "resolve", { role: "staff" }, () => ({ set: {} }), NOW, { claim: "attempt-y" }).then(() => 200, (e: { status?: number }) => e.status);
    expect(other).toBe(409);
  });
});

const dealInFor = (status: DealStatus, parties: { renter: { id: string }; lister: { id: string } }) => dealIn(status, parties);

/** The routes, with a body each accepts when the state and the caller allow it (`url`: a route outside the deal's path). */
const ROUTES: Record<DealAction, { path: string; body: (id: string) => unknown; staff?: true; url?: (id: string, userId: string) => Promise<string> }> = {
  accept: { path: "accept", body: () => ({}) },
  decline: { path: "decline", body: () => ({}) },
  cancel: { path: "cancel", body: () => ({}) },
  landlord_consent: { path: "landlord-consent", body: () => ({ not_needed: true }) },
  sign: { path: "sign", body: () => ({ typed_name: "Someone", intent: true, esign_consent: true, code: "000000", agreement_version: 1, sha256: agreementSha }) },
  checkout: { path: "checkout", body: () => ({}) },
  moved_in: { path: "moved-in", body: () => ({}) },
  problem: { path: "problem", body: () => ({ kind: "other", text: "The heating is broken" }) },
  statement: { path: "statement", body: () => ({ text: "My side of it" }) },
  cancellation_refund: { path: "cancellation-refund", body: () => ({ refund_cents: 0 }) },
  resolve: { path: "resolve", body: () => ({ refund_cents: 0 }), staff: true },
  review: { path: "review", body: () => ({ rating: 4, text: "Clean and as described" }) },
  // The reply is the review's own route: the review of the caller in this deal (none: an id nobody has).
  review_reply: {
    path: "reply",
    body: () => ({ text: "Thank you" }),
    url: async (id, userId) => {
      const review = await env.DB.prepare("SELECT id FROM reviews WHERE deal_id = ? AND subject_id = ?").bind(id, userId).first<{ id: string }>();
      return `/api/v1/reviews/${review?.id ?? "rvnobodyhasthisid00"}/reply`;
    },
  },
  condition_report: { path: "condition-report", body: () => ({ phase: "move_in", rooms: [{ name: "Kitchen", condition: "good", note: "", photos: [] }] }) },
  condition_report_comment: { path: "condition-report/move_in/comment", body: () => ({ text: "Agreed" }) },
};

const callRoute = async (action: DealAction, id: string, caller: { token: string; id?: string }) => {
  const r = ROUTES[action];
  const url = r.url ? await r.url(id, caller.id ?? "") : r.staff ? `/api/v1/admin/deals/${id}/${r.path}` : `/api/v1/deals/${id}/${r.path}`;
  return api(url, authed(caller.token, { method: "POST", body: JSON.stringify(r.body(id)), headers: { "content-type": "application/json" } }));
};

describe("every route obeys the declaration, and the Deal's actions name exactly the calls that succeed", () => {
  it.each(DEAL_STATUSES)("from %s", async (status) => {
    const db = createDb(env);
    // Parties of this state's walk alone: their calls stay within one user's write budget a minute.
    const [renter, lister, stranger] = await Promise.all([insertParty("Rory"), insertParty("Lia"), insertParty("Sam")]);
    await readyPayouts(lister.id);
    const dealIn = (s: DealStatus) => dealInFor(s, { renter, lister });
    const callers = [
      { as: "renter" as const, id: renter.id, token: renter.token, read: (id: string) => api(`/api/v1/deals/${id}`, authed(renter.token)) },
      { as: "lister" as const, id: lister.id, token: lister.token, read: (id: string) => api(`/api/v1/deals/${id}`, authed(lister.token)) },
      { as: "staff" as const, id: "", token: admin, read: (id: string) => api(`/api/v1/admin/deals/${id}`, authed(admin)) },
    ];
    for (const caller of callers) {
      const shownOn = await dealIn(status);
      const shown = (await json<{ data: { actions: DealAction[] } }>(await caller.read(shownOn))).data.actions;
      for (const action of Object.keys(ROUTES) as DealAction[]) {
        if (!!ROUTES[action].staff !== (caller.as === "staff")) continue;
        const id = await dealIn(status);
        const before = (await findDeal(db, id))!;
        const choice = chooseTransition(action, before, { now: Date.now(), as: caller.as });
        const res = await callRoute(action, id, caller);
        const label = `${action} as ${caller.as} from ${status} (answered ${res.status})`;
        if ("refused" in choice) {
          expect(shown, label).not.toContain(action);
          // A reply's route names a review: where the caller has none to reply to, there is nothing to find (404).
          const noReview = action === "review_reply" && !(await env.DB.prepare("SELECT 1 FROM reviews WHERE deal_id = ? AND subject_id = ?").bind(id, caller.id).first());
          expect(res.status, label).toBe(noReview ? 404 : choice.refused.status);
          expect((await dealRow(id))!.version, `${label}: nothing written`).toBe(before.version);
        } else {
          expect(shown, label).toContain(action);
          // Allowed by the process: a success, or (signing with a made-up code) the code's own 422.
          expect(action === "sign" ? [422] : [200, 201], label).toContain(res.status);
        }
      }
    }
    // A stranger reads nothing and does nothing.
    const id = await dealIn(status);
    expect((await api(`/api/v1/deals/${id}`, authed(stranger.token))).status).toBe(404);
    for (const action of Object.keys(ROUTES) as DealAction[]) {
      if (ROUTES[action].staff) continue;
      expect((await callRoute(action, id, stranger)).status, `${action} as a stranger from ${status}`).toBe(404);
    }
  }, 120_000);
});
