/**
 * Reviews after a released deal (api-contract "Reviews and condition reports"; docs/decisions/040). Writing,
 * replying and the three timers (invite, reminder, reveal) are transitions of the declared process
 * (contract/deal-process.ts), made through the engine, so they share its refusals, its compare-and-set and
 * its notices: two reviews at once, or a review racing the reveal, land one after the other and the second
 * reveals both. Reports, staff's hide and the public lists are plain reads and writes of `reviews`.
 */
import { REVIEW_MESSAGES as R, summaryOf, type AdminReview, type DealReviews, type Review, type ReviewInput, type ReviewSummary, type UserReviewsResponse } from "../../contract/reviews";
import type { Pagination } from "../../contract/listings";
import { primaryOf, type Db } from "../../db/client";
import { eventStatement, findDeal, type DealRow, type DealSet, type GuardedStatement } from "../../db/queries/deals";
import {
  findReview,
  hideReview as hideReviewRow,
  insertReviewReport,
  insertReviewStatement,
  keepReview as keepReviewRow,
  replyStatement,
  reportsOfReviews,
  revealStatement,
  reviewsForStaff,
  reviewsOfDeal,
  reviewsOfUser,
  summaryCountsOf,
  summaryStatement,
  underVersion,
  type ReviewCursor,
  type ReviewRow,
} from "../../db/queries/reviews";
import { keysetPage } from "../../lib/cursor";
import { conflict, forbidden, notFound, validationFailed } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { log } from "../../lib/log";
import type { RequestMeta } from "../../lib/request-meta";
import { isoNow } from "../../lib/time";
import { purgeListingCache } from "../edge-cache";
import { scanForStorage } from "../scam-shield";
import { partyDeal } from ".";
import { sendNotice, transition, type Effects, type Role } from "./process";

export const FORMER_USER = "Former user";

/** A review as the contract answers it. */
export function toReview(r: ReviewRow): Review {
  return {
    id: r.id,
    deal_id: r.deal_id,
    author: r.author_id ? { id: r.author_id, first_name: r.author_first_name ?? FORMER_USER } : { id: null, first_name: FORMER_USER },
    subject_id: r.subject_id,
    role: r.role,
    rating: r.rating,
    text: r.text,
    created_at: r.created_at,
    revealed_at: r.revealed_at,
    reply: r.reply_text && r.reply_at ? { text: r.reply_text, created_at: r.reply_at } : null,
  };
}

const flagsOf = (r: ReviewRow): string[] => {
  try {
    const parsed: unknown = r.flags ? JSON.parse(r.flags) : [];
    return Array.isArray(parsed) ? parsed.filter((f): f is string => typeof f === "string") : [];
  } catch {
    return [];
  }
};

/** The statements that make a deal's reviews visible: the rows, the event, and both parties' summaries. */
function revealing(d: DealRow, at: string, by: "both_written" | "window_end", reviews: number): { set: DealSet; statements: GuardedStatement[] } {
  return {
    set: { reviews_revealed_at: at, review_reveal_due_at: null, review_reminder_due_at: null, review_invite_due_at: null },
    statements: [
      revealStatement(d.id, at),
      eventStatement(d.id, { type: "reviews_revealed", details: { reviews, by }, actorId: null, actorRole: "system", at }),
      ...[d.renter_id, d.lister_id].map((userId) => underVersion(summaryStatement(userId, { id: d.id, released: true }))),
    ],
  };
}

/** Reviews change what listing pages show (the lister's summary): signed-out copies are retired. */
async function retireListingPages(db: Db, d: DealRow) {
  await purgeListingCache(d.listing_id ? [d.listing_id] : [], db).catch((err: unknown) => log.warn("review_cache_purge_failed", { error: err instanceof Error ? err.name : "unknown" }));
}

/**
 * A party's one review of the other (201). Refused as the declaration says (404 to a stranger, 409 in
 * another state, after the window, or a second time); the second review of the deal reveals both.
 * The scam shield reads the text: a flagged review goes to staff's queue.
 */
export async function writeReview(db: Db, fx: Effects, user: { id: string }, dealId: string, input: ReviewInput, meta: RequestMeta, nowMs = Date.now()): Promise<Review> {
  const id = newId();
  const at = isoNow(nowMs);
  // A released deal's later months are paid between the parties (decision 030): the shield knows the first was paid here.
  const flags = scanForStorage(input.text, { firstMonthPaid: true });
  let revealed = false;
  const { after } = await transition(
    db,
    fx,
    dealId,
    "review",
    { user: user.id },
    (d, as) => {
      const role = as as Role;
      const otherWrote = role === "renter" ? d.lister_reviewed_at : d.renter_reviewed_at;
      const statements: GuardedStatement[] = [
        insertReviewStatement({ id, dealId: d.id, authorId: user.id, subjectId: role === "renter" ? d.lister_id : d.renter_id, role, rating: input.rating, text: input.text, flags: flags.length ? JSON.stringify(flags) : null, at }),
        eventStatement(d.id, { type: "reviewed", details: { review_id: id, rating: input.rating }, actorId: user.id, actorRole: role, at, ip: meta.ip, userAgent: meta.userAgent }),
      ];
      const set: DealSet = role === "renter" ? { renter_reviewed_at: at } : { lister_reviewed_at: at };
      revealed = !!otherWrote;
      if (!otherWrote) return { set, statements, notice: null };
      const reveal = revealing(d, at, "both_written", 2);
      return { set: { ...set, ...reveal.set }, statements: [...statements, ...reveal.statements], notice: "deal_reviews_visible" };
    },
    nowMs,
  );
  if (flags.length) log.info("review_flagged", { review_id: id, reasons: flags.length });
  if (revealed) await retireListingPages(db, after);
  const row = await findReview(primaryOf(db), id);
  return toReview(row!);
}

/** The deal jobs: the window ended, so whatever was written is revealed (a notice only when there is something to read). */
export async function revealAtWindowEnd(db: Db, fx: Effects, dealId: string, nowMs: number): Promise<boolean> {
  const at = isoNow(nowMs);
  const { after } = await transition(
    db,
    fx,
    dealId,
    "reviews_reveal",
    { role: "system" },
    (d) => {
      const written = (d.renter_reviewed_at ? 1 : 0) + (d.lister_reviewed_at ? 1 : 0);
      const reveal = revealing(d, at, "window_end", written);
      return { ...reveal, notice: written ? "deal_reviews_visible" : null };
    },
    nowMs,
  );
  if (after.renter_reviewed_at || after.lister_reviewed_at) await retireListingPages(db, after);
  return true;
}

/** The deal jobs: "leave a review", once, to both parties. */
export async function inviteToReview(db: Db, fx: Effects, dealId: string, nowMs: number): Promise<boolean> {
  await transition(db, fx, dealId, "review_invite", { role: "system" }, () => ({ set: { review_invite_due_at: null } }), nowMs);
  return true;
}

/** The deal jobs: two days before the window closes, the reminder to each party who has not written. */
export async function remindToReview(db: Db, fx: Effects, dealId: string, nowMs: number): Promise<boolean> {
  // The declared notice goes to each party still to write, not to both: sent here from the deal after the change.
  const { after } = await transition(db, null, dealId, "review_remind", { role: "system" }, () => ({ set: { review_reminder_due_at: null }, notice: null }), nowMs);
  const pending: Role[] = [...(after.renter_reviewed_at ? [] : ["renter" as const]), ...(after.lister_reviewed_at ? [] : ["lister" as const])];
  for (const role of pending) fx.defer(sendNotice(db, fx, "deal_review_reminder", role, after, "system").catch(() => undefined));
  return true;
}

/** A party's view of the deal's reviews: their own always, the other's once revealed (never its text before). */
export async function dealReviewsFor(db: Db, viewer: { userId: string } | { staff: true }, dealId: string): Promise<DealReviews> {
  let deal: DealRow;
  let role: Role | null = null;
  if ("userId" in viewer) ({ deal, role } = await partyDeal(db, dealId, viewer.userId));
  else {
    const found = await findDeal(db, dealId);
    if (!found) throw notFound("Deal not found");
    deal = found;
  }
  const rows = await reviewsOfDeal(db, dealId);
  const mine = role ? rows.find((r) => r.role === role) : undefined;
  const theirs = role ? rows.find((r) => r.role !== role) : undefined;
  const visible = (r: ReviewRow | undefined) => (r && (!role || (r.revealed_at && !r.hidden_at)) ? toReview(r) : null);
  return {
    window_ends_at: deal.review_window_ends_at,
    revealed_at: deal.reviews_revealed_at,
    mine: mine ? toReview(mine) : role ? null : visible(rows.find((r) => r.role === "renter")),
    theirs: role ? visible(theirs) : visible(rows.find((r) => r.role === "lister")),
    theirs_written: role ? !!theirs : rows.length > 0,
  };
}

/** The reviewed person's one reply (201); 403 to anyone else who can read the review, 409 after the first. */
export async function replyToReview(db: Db, fx: Effects, user: { id: string }, reviewId: string, text: string, meta: RequestMeta, nowMs = Date.now()): Promise<Review> {
  const review = await findReview(primaryOf(db), reviewId);
  const readable = review && !review.hidden_at && (review.revealed_at || review.author_id === user.id);
  if (!review || !readable) throw notFound(R.notFound);
  if (review.subject_id !== user.id) throw forbidden(R.onlyReviewed);
  const at = isoNow(nowMs);
  await transition(
    db,
    fx,
    review.deal_id,
    "review_reply",
    { user: user.id },
    (d, as) => ({
      set: as === "renter" ? { renter_replied_at: at } : { lister_replied_at: at },
      statements: [
        replyStatement(review.id, text, at),
        eventStatement(d.id, { type: "review_replied", details: { review_id: review.id }, actorId: user.id, actorRole: as, at, ip: meta.ip, userAgent: meta.userAgent }),
      ],
    }),
    nowMs,
  );
  return toReview((await findReview(primaryOf(db), reviewId))!);
}

/** Anyone signed in may report a review they can read (its author excepted): it goes to staff's queue. */
export async function reportReview(db: Db, user: { id: string }, reviewId: string, reason: string, nowMs = Date.now()) {
  const review = await findReview(primaryOf(db), reviewId);
  if (!review || review.hidden_at || !review.revealed_at) throw notFound(R.notFound);
  if (review.author_id === user.id) throw validationFailed([{ path: "reason", message: R.ownReview }]);
  if (!(await insertReviewReport(db, reviewId, user.id, reason, isoNow(nowMs)))) throw conflict(R.alreadyReported);
  return { review_id: reviewId, reported: true as const };
}

/** The public list of a user's reviews (and the viewer's own before the reveal), with the summary. */
export async function reviewsOfUserPage(db: Db, subjectId: string, viewerId: string | null, role: "renter" | "lister" | null, limit: number, cursor: ReviewCursor | null): Promise<UserReviewsResponse | null> {
  const counts = await summaryCountsOf(db, subjectId);
  if (!counts) return null;
  const rows = await reviewsOfUser(db, subjectId, viewerId, role, limit, cursor);
  const { items, pagination } = keysetPage(rows, limit, (last) => ({ created_at: last.created_at, id: last.id }));
  // Reviews by renters are of the user as a lister; by listers, of the user as a renter.
  const summary: ReviewSummary =
    role === "renter"
      ? summaryOf(counts.lister_review_count, counts.lister_review_sum)
      : role === "lister"
        ? summaryOf(counts.renter_review_count, counts.renter_review_sum)
        : summaryOf(counts.lister_review_count + counts.renter_review_count, counts.lister_review_sum + counts.renter_review_sum);
  return { data: items.map(toReview), pagination, summary };
}

// ---------------------------------------------------------------------------------------------
// Staff.

export async function reviewsForStaffPage(db: Db, status: "queue" | "hidden" | "all", limit: number, cursor: ReviewCursor | null): Promise<{ reviews: AdminReview[]; pagination: Pagination }> {
  const rows = await reviewsForStaff(db, status, limit, cursor);
  const { items, pagination } = keysetPage(rows, limit, (last) => ({ created_at: last.created_at, id: last.id }));
  const reports = await reportsOfReviews(
    db,
    items.map((r) => r.id),
  );
  return { reviews: items.map((r) => toAdminReview(r, reports)), pagination };
}

function toAdminReview(r: ReviewRow, reports: { review_id: string; reason: string; created_at: string }[]): AdminReview {
  return {
    ...toReview(r),
    subject: r.subject_id ? { id: r.subject_id, first_name: r.subject_first_name ?? FORMER_USER } : { id: null, first_name: FORMER_USER },
    listing_title: r.listing_title,
    hidden_at: r.hidden_at,
    hidden_reason: r.hidden_reason,
    flags: flagsOf(r),
    reports: reports.filter((x) => x.review_id === r.id).map(({ reason, created_at }) => ({ reason, created_at })),
    checked_at: r.checked_at,
  };
}

/** Staff hide a review with a reason (audited); its subject's summaries follow in the same batch. 409 when hidden already. */
export async function hideReview(db: Db, actor: string, reviewId: string, reason: string, nowMs = Date.now()): Promise<AdminReview> {
  const review = await findReview(primaryOf(db), reviewId);
  if (!review) throw notFound(R.notFound);
  if (!(await hideReviewRow(db, reviewId, review.subject_id, reason, isoNow(nowMs), actor))) throw conflict(R.hidden);
  const deal = await findDeal(primaryOf(db), review.deal_id);
  if (deal) await retireListingPages(db, deal);
  return staffView(db, reviewId);
}

/** Staff looked at a reported or flagged review and keep it (audited): it leaves the queue. */
export async function keepReview(db: Db, actor: string, reviewId: string, nowMs = Date.now()): Promise<AdminReview> {
  if (!(await findReview(primaryOf(db), reviewId))) throw notFound(R.notFound);
  await keepReviewRow(db, reviewId, isoNow(nowMs), actor);
  return staffView(db, reviewId);
}

async function staffView(db: Db, reviewId: string): Promise<AdminReview> {
  const r = (await findReview(primaryOf(db), reviewId))!;
  return toAdminReview(r, await reportsOfReviews(db, [r.id]));
}
