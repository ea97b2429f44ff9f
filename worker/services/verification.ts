/**
 * Identity verification: a document into the private bucket, its submission for review, and
 * staff's decision. unverified -> pending -> verified, or rejected (resubmission allowed).
 */
import type { z } from "zod";
import type { reviewSchema } from "../contract/admin";
import { LIMITS } from "../contract/limits";
import { isIdVerified } from "../contract/policies";
import { submitVerificationSchema, VERIFICATION_MESSAGES as M, type VerificationRequest } from "../contract/verification";
import type { Config } from "../env";
import type { Db } from "../db/client";
import type { UserRow } from "../db/queries/users";
import { decideRequest, deleteRequest, findRequest, latestRequestOf, rememberUpload, submitRequest, type VerificationRequestRow } from "../db/queries/verification";
import { apiError, badRequest, conflict, notFound, validationFailed } from "../lib/errors";
import { newId } from "../lib/ids";
import { isoNow } from "../lib/time";
import { insertAudit } from "../db/queries/audit";
import { decodeDataUrl, decodedSize, detectFileType, EXTENSIONS } from "./files";
import { imagePixelsProblem } from "./images";
import { notify } from "./notify";

/** Documents are named by an opaque reference, never a URL: no public route serves them. */
const REFERENCE_PREFIX = "private-document:";

export function toVerificationRequest(r: VerificationRequestRow): VerificationRequest {
  return {
    id: r.id,
    user_id: r.userId,
    document_type: r.documentType,
    status: r.status as VerificationRequest["status"],
    submitted_at: r.submittedAt,
    reviewed_at: r.reviewedAt,
    id_document_url: r.documentKey ? `${REFERENCE_PREFIX}${r.documentKey}` : null,
    notes: r.notes,
    rejection_reason: r.rejectionReason,
  };
}

const TYPE_BY_EXTENSION: Record<string, string> = { jpg: "image/jpeg", jpeg: "image/jpeg", png: "image/png", webp: "image/webp", pdf: "application/pdf" };
const extensionType = (filename: string) => {
  const ext = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase();
  return ext ? (TYPE_BY_EXTENSION[ext] ?? "unknown") : undefined;
};

/** Stores a document in the private bucket; returns its reference. */
export async function uploadDocument(db: Db, env: Env, userId: string, body: { image_data: string; filename?: string; content_type?: string }) {
  if (decodedSize(body.image_data) > LIMITS.documentMaxBytes) throw apiError(413, { detail: M.tooLarge });
  const bytes = decodeDataUrl(body.image_data);
  // A file that was sent says what is wrong with it, never "select a document".
  if (!bytes) throw badRequest(M.unreadable);
  if (bytes.length === 0) throw badRequest(M.empty);
  const type = detectFileType(bytes);
  if (!type || type === "image/gif") throw badRequest(M.invalidType);
  // A file whose name or declared type says otherwise (a PDF renamed .jpg) is refused too.
  const declared = [body.content_type, body.filename && extensionType(body.filename)].filter(Boolean);
  if (declared.some((t) => t !== type)) throw badRequest(M.invalidType);
  // A picture staff's browser will decode: within 25 megapixels by its header, like every upload (docs/decisions/036).
  const pixels = type === "application/pdf" ? null : imagePixelsProblem(bytes, body.filename || "This image");
  if (pixels) throw validationFailed([{ path: "image_data", message: pixels.message }]);
  // Keys carry the owner's id: a reference submitted by anyone else is refused.
  const key = `documents/${userId}/${newId()}.${EXTENSIONS[type]}`;
  await env.ID_DOCUMENTS.put(key, bytes, { httpMetadata: { contentType: type } });
  // Remembered until it is submitted; the cron deletes documents left unsubmitted for 24 hours.
  await rememberUpload(db, key, userId);
  return `${REFERENCE_PREFIX}${key}`;
}

/** Sends an uploaded document for review; the user becomes pending. */
export async function submitForReview(db: Db, env: Env, user: UserRow, body: z.infer<typeof submitVerificationSchema>): Promise<VerificationRequest> {
  if (isIdVerified({ id_verification_status: user.idVerificationStatus })) throw conflict(M.alreadyVerified);
  if (user.idVerificationStatus === "pending") throw conflict(M.pending);
  const key = body.id_document_url.startsWith(REFERENCE_PREFIX) ? body.id_document_url.slice(REFERENCE_PREFIX.length) : "";
  if (!key.startsWith(`documents/${user.id}/`) || !(await env.ID_DOCUMENTS.head(key))) {
    throw validationFailed([{ path: "id_document_url", message: M.missing }]);
  }
  const id = newId();
  const now = isoNow();
  // Guarded on the status read above, so two submissions cannot both create a pending request.
  const [updated] = await db.batch(
    submitRequest(
      db,
      { id, userId: user.id, documentType: body.document_type, documentKey: key, notes: body.notes || null, status: "pending", submittedAt: now },
      now,
    ),
  );
  if (!updated.meta.changes) {
    await deleteRequest(db, id);
    throw conflict(M.pending);
  }
  return toVerificationRequest((await findRequest(db, id))!);
}

const ALREADY_REVIEWED = "This verification request was already reviewed.";

/** Staff's decision on a user's latest request; a repeated identical decision changes nothing. */
export async function reviewRequest(db: Db, env: Env, config: Config, actor: string, id: string, review: z.infer<typeof reviewSchema>) {
  const row = await findRequest(db, id);
  if (!row) throw notFound("Verification request not found");
  // A decision applies to the user's latest request only: approving an old document after the
  // user sent a new one (or after a newer one was rejected) would decide the wrong thing.
  const latest = await latestRequestOf(db, row.userId);
  if (latest?.id !== row.id) throw conflict("This user has sent a newer verification request. Review that one instead.");
  // A different decision on a reviewed request is refused.
  if (row.status !== "pending" && row.status !== review.status) throw conflict(ALREADY_REVIEWED);
  const [changed] = await db.batch([
    ...decideRequest(db, row, review.status, review.rejection_reason ?? null, isoNow()),
    insertAudit(db, actor, `verification_${review.status}`, "verification_requests", id, review.rejection_reason ? { reason: review.rejection_reason } : undefined),
  ]);
  const updated = (await findRequest(db, id))!;
  // Lost a race to a different decision: say so rather than report a decision that did not apply.
  if (!changed.meta.changes && updated.status !== review.status) throw conflict(ALREADY_REVIEWED);
  if (changed.meta.changes) {
    await notify({ db, env, config }, { userId: row.userId }, { kind: "verification_review", approved: review.status === "approved", reason: review.rejection_reason ?? null });
  }
  return { changed: !!changed.meta.changes, data: toVerificationRequest(updated) };
}
