/**
 * Reviews and condition reports, after the deal (api-contract "Reviews and condition reports";
 * docs/decisions/040): the inputs, the answers, the windows both sides read (pure), the messages.
 * The rules that make them transitions of the deal are in contract/deal-process.ts.
 */
import { z, visibleText } from "./zod";
import { startOfDate } from "./deals";
import { REVIEW_NEW_BELOW } from "./constants";
import { EVIDENCE_MESSAGES, EVIDENCE_URL } from "./evidence";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export const REVIEW_TIMING = {
  /** Each party may review the other this long after the deal is released; then both are revealed. */
  windowMs: 14 * DAY,
  /** "Leave a review" is said again this long before the window closes, to a party who has not written. */
  reminderBeforeEndMs: 2 * DAY,
  /** A move-in report: from the start of the move-in date (the deal's time zone) until this long after it. */
  moveInAfterMs: 72 * HOUR,
  /** A move-out report: in the last days of the stay... */
  moveOutBeforeMs: 7 * DAY,
  /** ...and until this long after the start of the move-out date. */
  moveOutAfterMs: 72 * HOUR,
} as const;

/** The words screens say of those timings (never retyped). */
export const REVIEW_WORDS = {
  windowDays: REVIEW_TIMING.windowMs / DAY,
  reminderDays: REVIEW_TIMING.reminderBeforeEndMs / DAY,
  moveInHours: REVIEW_TIMING.moveInAfterMs / HOUR,
  moveOutDays: REVIEW_TIMING.moveOutBeforeMs / DAY,
  moveOutHours: REVIEW_TIMING.moveOutAfterMs / HOUR,
  /** Screens say "New" beside an average of fewer reviews than this (no lone 5.0). */
  newBelow: REVIEW_NEW_BELOW,
} as const;

export const REVIEW_TEXT_MAX = 1000;
export const REVIEW_REPLY_MAX = 1000;
export const REVIEW_REPORT_MAX = 500;
export const HIDE_REASON_MAX = 500;
export const ROOM_NAME_MAX = 60;
export const ROOM_NOTE_MAX = 1000;
export const ROOMS_MAX = 20;
export const ROOM_PHOTOS_MAX = 6;
export const REPORT_COMMENT_MAX = 1000;

export const CONDITION_PHASES = ["move_in", "move_out"] as const;
export type ConditionPhase = (typeof CONDITION_PHASES)[number];
export const ROOM_CONDITIONS = ["good", "worn", "damaged", "missing"] as const;
export type RoomCondition = (typeof ROOM_CONDITIONS)[number];
/** A room in one of these offers "Report a problem" with the report attached. */
export const PROBLEM_CONDITIONS: readonly RoomCondition[] = ["damaged", "missing"];

export const REVIEW_MESSAGES = {
  notFound: "Review not found",
  alreadyReviewed: "You have already reviewed this deal",
  windowClosed: `Reviews can be written within ${REVIEW_WORDS.windowDays} days of the deal's release`,
  notReleased: "Reviews are written after a deal is released",
  alreadyReplied: "You have already replied to this review",
  onlyReviewed: "Only the person reviewed can reply",
  notRevealedYet: "This review is not visible yet",
  alreadyReported: "You have already reported this review",
  hidden: "This review is hidden",
  ownReview: "You cannot report your own review",
  reportExists: (phase: ConditionPhase) => `The ${phaseWords(phase)} report was already sent; it is read-only`,
  reportWindow: (phase: ConditionPhase, opens: string, closes: string) =>
    `The ${phaseWords(phase)} report can be sent from ${opens} until ${closes}; it arrived outside that window`,
  noReportWindow: "No condition report can be sent now",
  noReport: (phase: ConditionPhase) => `There is no ${phaseWords(phase)} report to comment on`,
  alreadyCommented: "You have already commented on this report",
  noCommentable: "There is no report waiting for your comment",
} as const;

export const phaseWords = (phase: ConditionPhase) => (phase === "move_in" ? "move-in" : "move-out");

/** When each phase's report may be sent (epoch ms), from the deal's dates in its time zone. */
export function conditionWindow(phase: ConditionPhase, d: { move_in: string; move_out: string; time_zone: string }): { opens: number; closes: number } {
  if (phase === "move_in") {
    const start = startOfDate(d.move_in, d.time_zone);
    return { opens: start, closes: start + REVIEW_TIMING.moveInAfterMs };
  }
  const end = startOfDate(d.move_out, d.time_zone);
  return { opens: end - REVIEW_TIMING.moveOutBeforeMs, closes: end + REVIEW_TIMING.moveOutAfterMs };
}

export const inConditionWindow = (phase: ConditionPhase, d: { move_in: string; move_out: string; time_zone: string }, nowMs: number) => {
  const w = conditionWindow(phase, d);
  return nowMs >= w.opens && nowMs <= w.closes;
};

// ---------------------------------------------------------------------------------------------
// Inputs.

export const reviewSchema = z.object({
  rating: z.number("rating must be a number from 1 to 5").int("rating must be a whole number from 1 to 5").min(1, "rating must be from 1 to 5").max(5, "rating must be from 1 to 5"),
  text: visibleText({ multiline: true, error: "text is required" })
    .min(1, "Please write a few words")
    .max(REVIEW_TEXT_MAX, `The review must be at most ${REVIEW_TEXT_MAX} characters`),
});
export type ReviewInput = z.infer<typeof reviewSchema>;

export const reviewReplySchema = z.object({
  text: visibleText({ multiline: true, error: "text is required" }).min(1, "Please write a reply").max(REVIEW_REPLY_MAX, `The reply must be at most ${REVIEW_REPLY_MAX} characters`),
});
export const reviewReportSchema = z.object({
  reason: visibleText({ multiline: true, error: "reason is required" }).min(1, "Please say what is wrong with this review").max(REVIEW_REPORT_MAX, `The reason must be at most ${REVIEW_REPORT_MAX} characters`),
});
export const hideReviewSchema = z.object({
  reason: visibleText({ multiline: true, error: "reason is required" }).min(1, "A reason is required").max(HIDE_REASON_MAX, `The reason must be at most ${HIDE_REASON_MAX} characters`),
});

export const userReviewsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  last_evaluated_key: z.string().max(500).optional(),
  role: z.enum(["renter", "lister"]).optional(),
});
export const reviewCursorSchema = z.object({ created_at: z.string().max(40), id: z.string().max(40) });

export const adminReviewsQuerySchema = z.object({
  status: z.enum(["queue", "hidden", "all"]).default("queue"),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  last_evaluated_key: z.string().max(500).optional(),
});

const roomSchema = z.object({
  name: visibleText({ error: "Each room needs a name" }).min(1, "Each room needs a name").max(ROOM_NAME_MAX, `A room's name must be at most ${ROOM_NAME_MAX} characters`),
  condition: z.enum(ROOM_CONDITIONS, `condition must be one of ${ROOM_CONDITIONS.join(", ")}`),
  note: visibleText({ multiline: true })
    .max(ROOM_NOTE_MAX, `A room's note must be at most ${ROOM_NOTE_MAX} characters`)
    .optional()
    .nullable()
    .transform((v) => v ?? ""),
  photos: z
    .array(z.string().max(500).regex(EVIDENCE_URL, EVIDENCE_MESSAGES.notEvidence), "photos must be a list of picture URLs")
    .max(ROOM_PHOTOS_MAX, `At most ${ROOM_PHOTOS_MAX} photos a room`)
    .optional()
    .default([]),
});
export const conditionReportSchema = z.object({
  phase: z.enum(CONDITION_PHASES, `phase must be one of ${CONDITION_PHASES.join(", ")}`),
  rooms: z.array(roomSchema, "rooms must be a list").min(1, "Add at least one room").max(ROOMS_MAX, `At most ${ROOMS_MAX} rooms`),
});
export type ConditionReportInput = z.infer<typeof conditionReportSchema>;
export const conditionPhaseSchema = z.enum(CONDITION_PHASES, "The phase must be move_in or move_out");
export const reportCommentSchema = z.object({
  text: visibleText({ multiline: true, error: "text is required" }).min(1, "Please write a comment").max(REPORT_COMMENT_MAX, `The comment must be at most ${REPORT_COMMENT_MAX} characters`),
});

// ---------------------------------------------------------------------------------------------
// Answers.

export interface ReviewSummary {
  count: number;
  /** Always sent (0 with no reviews); screens say "New" beside it while `count` < REVIEW_WORDS.newBelow. */
  average: number;
}
export const summaryOf = (count: number, sum: number): ReviewSummary => ({ count, average: count ? sum / count : 0 });
/** The summary in words: "4.5 (2 reviews) New", "No reviews yet". */
export function summaryWords(s: ReviewSummary): { average: string; count: string; isNew: boolean } {
  return { average: s.average.toFixed(1), count: `${s.count} ${s.count === 1 ? "review" : "reviews"}`, isNew: s.count < REVIEW_WORDS.newBelow };
}

export interface Review {
  id: string;
  deal_id: string;
  /** The author; after their account was deleted: `{id: null, first_name: "Former user"}`. */
  author: { id: string | null; first_name: string };
  /** Whom the review is of. */
  subject_id: string | null;
  /** The author's side in the deal. */
  role: "renter" | "lister";
  rating: number;
  text: string;
  created_at: string;
  /** When both reviews of the deal became visible (null: only its author sees it yet). */
  revealed_at: string | null;
  reply: { text: string; created_at: string } | null;
}

export interface UserReviewsResponse {
  data: Review[];
  pagination: { next_token: string | null; has_more: boolean };
  summary: ReviewSummary;
}

/** A deal's reviews as a party reads them (GET deals/{id}/reviews): their own always, the other's once revealed. */
export interface DealReviews {
  window_ends_at: string | null;
  revealed_at: string | null;
  mine: Review | null;
  theirs: Review | null;
  /** Whether the other party has written theirs (never what it says before the reveal). */
  theirs_written: boolean;
}

/** Staff's view of a review: the public one plus its moderation. */
export interface AdminReview extends Review {
  subject: { id: string | null; first_name: string };
  listing_title: string;
  hidden_at: string | null;
  hidden_reason: string | null;
  /** The scam shield's reasons, when it flagged the text. */
  flags: string[];
  reports: { reason: string; created_at: string }[];
  checked_at: string | null;
}

export interface ConditionPhoto {
  url: string;
  /** When the server received the photo (its upload): the proof of when it was taken at the latest. */
  received_at: string;
}
export interface ConditionRoom {
  name: string;
  condition: RoomCondition;
  note: string;
  photos: ConditionPhoto[];
}
export interface ConditionReport {
  deal_id: string;
  phase: ConditionPhase;
  rooms: ConditionRoom[];
  /** The server's receipt time of the report (the proof). */
  created_at: string;
  received_at: string;
  author_id: string | null;
  comment: { text: string; created_at: string } | null;
  /** Whether a room is damaged or missing (a move-in report then offers "Report a problem"). */
  has_problem: boolean;
}
export interface ConditionReportsResponse {
  data: ConditionReport[];
  /** Each phase's window (ISO), so screens say when a report can be sent. */
  windows: Record<ConditionPhase, { opens: string; closes: string }>;
}
