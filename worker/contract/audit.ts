/**
 * Every action the staff audit log records, with what the staff panel says for it: one union, so a
 * new staff action cannot log a free string (db/queries/audit takes only these). No zod here: the
 * staff panel imports the labels.
 */
export const AUDIT_ACTION_LABELS = {
  login: "Signed in to the staff panel",
  logout: "Signed out of the staff panel",
  listing_approved: "Approved a listing",
  listing_rejected: "Rejected a listing",
  listing_edit: "Edited a listing",
  listings_verify_all: "Approved every pending listing",
  listing_promote: "Promoted a listing",
  listing_unpromote: "Ended a listing's promotion",
  cleanup_expired_promotions: "Cleared expired promotions",
  verification_approved: "Approved an identity document",
  verification_rejected: "Rejected an identity document",
  user_verification_status: "Changed a user's verification status",
  user_suspend: "Suspended a user",
  user_unsuspend: "Lifted a user's suspension",
  report_resolve: "Resolved a report",
  safety_review: "Reviewed a conversation's safety flags",
  feedback_archive: "Archived feedback",
  delete_item: "Deleted a row",
  deal_pdf_download: "Downloaded a signed sublease agreement",
  deal_resolve: "Decided a deal's case (refund and release)",
  photo_not_a_copy: "Marked a photo match as not a copy",
  review_hide: "Hid a review",
  review_keep: "Kept a reported review",
} as const satisfies Record<string, string>;
export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;

/** What the panel says for an audit row's action (rows written before an action was named read as their key). */
export function auditActionLabel(action: string): string {
  return Object.hasOwn(AUDIT_ACTION_LABELS, action) ? AUDIT_ACTION_LABELS[action as AuditAction] : action.replace(/_/g, " ");
}
