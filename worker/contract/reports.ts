/**
 * Reports, blocks and suspension (docs/decisions/015): what a person may report and why, what staff do
 * with a report, and the texts both sides show.
 */
import { visibleText, z } from "./zod";
import type { Pagination } from "./listings";
import { REPORT_DETAILS_MAX, REPORT_TEXTS } from "./messaging-rules";

export const REPORT_REASONS = ["scam", "taken", "wrong_info", "inappropriate", "discriminatory", "other"] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  scam: "Scam or fraud",
  taken: "Already taken",
  wrong_info: "Wrong information",
  inappropriate: "Inappropriate",
  discriminatory: "Discriminatory",
  other: "Other",
};

export { REPORT_DETAILS_MAX, REPORT_TEXTS };

export const REPORT_ACTIONS = ["hide_listing", "suspend_user", "dismiss"] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];

const details = visibleText({ multiline: true }).max(REPORT_DETAILS_MAX, REPORT_TEXTS.detailsTooLong).nullable().optional();
const reason = z.enum(REPORT_REASONS, REPORT_TEXTS.reasonRequired);
const id = z.string().trim().min(1).max(64);

/** Details are required when the reason is "other" (there is nothing else to go on). */
const detailsForOther = (r: { reason: ReportReason; details?: string | null }) => r.reason !== "other" || !!r.details;

export const reportSchema = z
  .discriminatedUnion("kind", [
    z.object({ kind: z.literal("listing"), listing_id: id, reason, details }),
    z.object({ kind: z.literal("user"), user_id: id, conversation_id: id.nullable().optional(), reason, details }),
  ])
  .refine(detailsForOther, { message: REPORT_TEXTS.detailsRequired, path: ["details"] });
export type ReportInput = z.infer<typeof reportSchema>;

/** The SPA's dialog: the reason and details, whatever is reported. */
export const reportFormSchema = z
  .object({ reason, details: visibleText({ multiline: true }).max(REPORT_DETAILS_MAX, REPORT_TEXTS.detailsTooLong) })
  .refine(detailsForOther, { message: REPORT_TEXTS.detailsRequired, path: ["details"] });

export const resolveReportSchema = z.object({ action: z.enum(REPORT_ACTIONS, "action must be hide_listing, suspend_user or dismiss") });
export const reportStatusQuery = z.object({
  status: z.enum(["open", "resolved"]).default("open"),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  last_evaluated_key: z.string().max(300).optional(),
});

export const blockSchema = z.object({ user_id: id });

export interface Report {
  id: string;
  kind: "listing" | "user";
  reason: ReportReason;
  reason_label: string;
  details: string | null;
  status: "open" | "resolved";
  resolution: ReportAction | null;
  resolved_at: string | null;
  created_at: string;
  listing_id: string | null;
  conversation_id: string | null;
  reported_user_id: string;
}

/** POST reports: 201 new, 200 when the reporter already has an open report on this target. */
export interface ReportResponse {
  data: Report;
}

export interface AdminReport extends Report {
  reporter: { id: string; name: string };
  /** null once the reported account is deleted. */
  reported_user: { id: string; name: string; suspended: boolean } | null;
  listing_title: string | null;
  /** Open reports about the same listing (listing reports) or the same user (user reports). */
  open_reports_on_target: number;
}

/** GET admin/reports?status=open|resolved: newest first. */
export interface AdminReportsResponse {
  reports: AdminReport[];
  pagination: Pagination;
}

/** POST admin/reports/{id}/resolve. */
export interface ResolveReportResponse {
  success: true;
  report: Report;
}

/** POST admin/users/{id}/unsuspend. */
export interface UnsuspendResponse {
  success: true;
  /** Listings made visible again. */
  restored_listings: number;
}

export interface BlockedUser {
  id: string;
  name: string;
  avatar_url: string | null;
  blocked_at: string;
}

/** GET users/blocks (newest first); POST users/blocks answers the full list too. */
export interface BlockedUsersResponse {
  data: BlockedUser[];
}
