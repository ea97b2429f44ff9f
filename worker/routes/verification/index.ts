/**
 * Identity verification (user side): upload a document into the private bucket, submit it for
 * review, read the status. unverified -> pending -> verified, or rejected (resubmission allowed).
 */
import { and, desc, eq, ne } from "drizzle-orm";
import { LIMITS } from "../../contract/constants";
import {
  submitVerificationSchema,
  uploadDocumentSchema,
  VERIFICATION_MESSAGES as M,
  type VerificationRequest,
  type VerificationStatus,
} from "../../contract/verification";
import { createDb } from "../../db/client";
import { documentUploads, users, verificationRequests } from "../../db/schema";
import { createRouter } from "../../lib/context";
import { apiError, badRequest, conflict, validationFailed } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { isoNow } from "../../lib/time";
import { parseJson } from "../../lib/validate";
import { requireUser } from "../../middleware/auth";
import { enforceLimit } from "../../middleware/rate-limit";
import { decodeDataUrl, decodedSize, detectFileType, EXTENSIONS } from "../../services/files";

const REFERENCE_PREFIX = "private-document:";

export function toVerificationRequest(r: typeof verificationRequests.$inferSelect): VerificationRequest {
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

const isVerified = (status: string) => status === "verified" || status === "approved";

export const verificationRoutes = createRouter()
  .post("/upload-document", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const body = await parseJson(c, uploadDocumentSchema);
    if (decodedSize(body.image_data) > LIMITS.documentMaxBytes) throw apiError(413, { detail: M.tooLarge });
    const bytes = decodeDataUrl(body.image_data);
    if (!bytes || bytes.length === 0) throw badRequest(M.missing);
    const type = detectFileType(bytes);
    if (!type || type === "image/gif") throw badRequest(M.invalidType);
    // A file whose name or declared type says otherwise (a PDF renamed .jpg) is refused too.
    const declared = [body.content_type, body.filename && extensionType(body.filename)].filter(Boolean);
    if (declared.some((t) => t !== type)) throw badRequest(M.invalidType);
    // Keys carry the owner's id: a reference submitted by anyone else is refused.
    const key = `documents/${user.id}/${newId()}.${EXTENSIONS[type]}`;
    await c.env.ID_DOCUMENTS.put(key, bytes, { httpMetadata: { contentType: type } });
    // Remembered until it is submitted; the cron deletes documents left unsubmitted for 24 hours.
    await createDb(c.env).insert(documentUploads).values({ key, userId: user.id });
    return c.json({ id_document_url: `${REFERENCE_PREFIX}${key}` }, 201);
  })

  .post("/submit-url", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const body = await parseJson(c, submitVerificationSchema);
    if (isVerified(user.idVerificationStatus)) throw conflict(M.alreadyVerified);
    if (user.idVerificationStatus === "pending") throw conflict(M.pending);
    const key = body.id_document_url.startsWith(REFERENCE_PREFIX) ? body.id_document_url.slice(REFERENCE_PREFIX.length) : "";
    if (!key.startsWith(`documents/${user.id}/`) || !(await c.env.ID_DOCUMENTS.head(key))) {
      throw validationFailed([{ path: "id_document_url", message: M.missing }]);
    }
    const db = createDb(c.env);
    const id = newId();
    // Guarded on the status read above, so two submissions cannot both create a pending request.
    const [updated] = await db.batch([
      db
        .update(users)
        .set({ idVerificationStatus: "pending", updatedAt: isoNow() })
        .where(and(eq(users.id, user.id), ne(users.idVerificationStatus, "pending"), ne(users.idVerificationStatus, "verified"))),
      db.insert(verificationRequests).values({
        id,
        userId: user.id,
        documentType: body.document_type,
        documentKey: key,
        notes: body.notes || null,
        status: "pending",
        submittedAt: isoNow(),
      }),
      db.delete(documentUploads).where(eq(documentUploads.key, key)),
    ]);
    if (!updated.meta.changes) {
      await db.delete(verificationRequests).where(eq(verificationRequests.id, id));
      throw conflict(M.pending);
    }
    const row = await db.select().from(verificationRequests).where(eq(verificationRequests.id, id)).get();
    return c.json({ data: toVerificationRequest(row!) }, 201);
  })

  .get("/status", async (c) => {
    const user = await requireUser(c);
    const latest = await createDb(c.env)
      .select()
      .from(verificationRequests)
      .where(eq(verificationRequests.userId, user.id))
      .orderBy(desc(verificationRequests.submittedAt))
      .get();
    const data: VerificationStatus = {
      status: user.idVerificationStatus,
      latest_request: latest ? toVerificationRequest(latest) : null,
    };
    return c.json({ data });
  });
