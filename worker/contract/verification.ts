import { LIMITS, megabytes } from "./limits";
import { visibleText, z } from "./zod";
import type { Pagination } from "./listings";

export const DOCUMENT_TYPES = ["student_id", "driver_license", "passport", "national_id", "other"] as const;

export const uploadDocumentSchema = z.object({
  filename: visibleText().max(200).optional(),
  content_type: z.string().max(100).optional(),
  image_data: z.string().min(1, "Please select a document to upload."),
});

export const submitVerificationSchema = z.object({
  document_type: z.enum(DOCUMENT_TYPES, "Please choose a document type."),
  notes: visibleText({ multiline: true }).max(LIMITS.verificationNotesMax, `Notes must be at most ${LIMITS.verificationNotesMax} characters`).nullable().optional(),
  id_document_url: z.string().min(1, "Please select a document to upload."),
});

export interface VerificationRequest {
  id: string;
  user_id: string;
  document_type: string;
  status: "pending" | "approved" | "rejected";
  submitted_at: string;
  reviewed_at: string | null;
  /** An opaque reference into private storage; no public URL serves it. */
  id_document_url: string | null;
  notes: string | null;
  rejection_reason: string | null;
}

export interface VerificationStatus {
  status: string;
  latest_request: VerificationRequest | null;
}

export const VERIFICATION_MESSAGES = {
  invalidType: "Invalid file type. Only JPEG, PNG, WebP, and PDF files are allowed.",
  tooLarge: `File size too large. Maximum size is ${megabytes(LIMITS.documentMaxBytes)}.`,
  missing: "Please select a document to upload.",
  /** A file was sent, but it holds nothing, or is not readable base64. */
  empty: "The file is empty. Please choose a JPEG, PNG, WebP or PDF file.",
  unreadable: "The file could not be read. Please choose a JPEG, PNG, WebP or PDF file.",
  pending: "You have a pending verification request",
  alreadyVerified: "You are already verified",
} as const;

/** POST verification/upload-document. */
export interface DocumentUploadResponse {
  id_document_url: string;
}

/** POST verification/submit-url. */
export interface VerificationRequestResponse {
  data: VerificationRequest;
}

/** GET verification/status. */
export interface VerificationStatusResponse {
  data: VerificationStatus;
}

/** A row of the staff's identity review list: a request, or a user who never sent one (status unverified, no id). */
export type AdminVerificationItem =
  | (VerificationRequest & { user_email: string; user_name: string })
  | { id: null; user_id: string; status: "unverified"; user_email: string; user_name: string; submitted_at: null };

/** GET verification/admin/all?status&limit&last_evaluated_key&q (an id of the request or user, or an email). */
export interface AdminVerificationListResponse {
  data: AdminVerificationItem[];
  pagination: Pagination;
}

/** PATCH verification/admin/{id}/review: changed is false for a repeated identical decision. */
export interface VerificationReviewResponse {
  success: true;
  changed: boolean;
  data: VerificationRequest;
}
