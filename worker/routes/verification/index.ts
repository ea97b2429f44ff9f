/** Identity verification (user side): upload a document, submit it for review, read the status. */
import {
  submitVerificationSchema,
  uploadDocumentSchema,
  type DocumentUploadResponse,
  type VerificationRequestResponse,
  type VerificationStatusResponse,
} from "../../contract/verification";
import { latestRequestOf } from "../../db/queries/verification";
import { createRouter } from "../../lib/context";
import { parseJson } from "../../lib/validate";
import { requireUser } from "../../middleware/auth";
import { enforceLimit } from "../../middleware/rate-limit";
import { submitForReview, toVerificationRequest, uploadDocument } from "../../services/verification";

export const verificationRoutes = createRouter()
  .post("/upload-document", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const body = await parseJson(c, uploadDocumentSchema);
    return c.json<DocumentUploadResponse>({ id_document_url: await uploadDocument(c.var.db, c.env, user.id, body) }, 201);
  })

  .post("/submit-url", async (c) => {
    const user = await requireUser(c);
    await enforceLimit(c, "WRITE_LIMITER", user.id);
    const body = await parseJson(c, submitVerificationSchema);
    return c.json<VerificationRequestResponse>({ data: await submitForReview(c.var.db, c.env, user, body) }, 201);
  })

  .get("/status", async (c) => {
    const user = await requireUser(c);
    const latest = await latestRequestOf(c.var.db, user.id);
    return c.json<VerificationStatusResponse>({
      data: { status: user.idVerificationStatus, latest_request: latest ? toVerificationRequest(latest) : null },
    });
  });
