/** Identity review for staff: lists, the private document (streamed to admins only), the decision. */
import { z } from "zod";
import { reviewSchema, staffPageSchema } from "../../contract/admin";
import type { AdminVerificationListResponse, VerificationReviewResponse } from "../../contract/verification";
import { findRequest } from "../../db/queries/verification";
import { createRouter } from "../../lib/context";
import { notFound } from "../../lib/errors";
import { parseJson, parseQuery } from "../../lib/validate";
import { requireAdmin } from "../../middleware/require-admin";
import { staffVerifications } from "../../services/staff-lists";
import { reviewRequest } from "../../services/verification";

const listQuery = staffPageSchema.extend({ status: z.enum(["pending", "unverified", "approved", "rejected"], "status must be pending, unverified, approved or rejected").default("pending") });

export const verificationAdminRoutes = createRouter()
  // One page of a status (docs/decisions/038): pending oldest first, the others newest first.
  .get("/all", async (c) => {
    await requireAdmin(c);
    const { status, ...page } = parseQuery(c, listQuery);
    const { items, pagination } = await staffVerifications(c.var.db, status, page);
    return c.json<AdminVerificationListResponse>({ data: items, pagination });
  })

  .get("/:id/document", async (c) => {
    await requireAdmin(c);
    const row = await findRequest(c.var.db, c.req.param("id"));
    const object = row?.documentKey ? await c.env.ID_DOCUMENTS.get(row.documentKey) : null;
    if (!object) throw notFound("Document not found");
    const type = object.httpMetadata?.contentType ?? "application/octet-stream";
    const extension = /\.([a-z]+)$/.exec(row!.documentKey!)?.[1] ?? "bin";
    return new Response(object.body, {
      headers: {
        "Content-Type": type,
        // A download, never a page of our origin: even a document that fooled the type check
        // cannot run script here (attachment, and a sandbox CSP that the app keeps).
        "Content-Disposition": `attachment; filename="identity-document-${row!.id}.${extension}"`,
        "Content-Security-Policy": "sandbox; default-src 'none'",
        // Private: never kept by a browser or shared cache.
        "Cache-Control": "no-store, private",
        "X-Content-Type-Options": "nosniff",
      },
    });
  })

  .patch("/:id/review", async (c) => {
    const actor = await requireAdmin(c);
    const review = await parseJson(c, reviewSchema);
    const result = await reviewRequest(c.var.db, c.env, c.var.config, actor, c.req.param("id"), review);
    return c.json<VerificationReviewResponse>({ success: true, ...result });
  });
