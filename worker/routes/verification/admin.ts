/** Identity review for staff: lists, the private document (streamed to admins only), the decision. */
import { and, desc, eq, exists, notExists } from "drizzle-orm";
import { z } from "zod";
import { reviewSchema } from "../../contract/admin";
import { createDb } from "../../db/client";
import { users, verificationRequests } from "../../db/schema";
import { createRouter } from "../../lib/context";
import { conflict, notFound } from "../../lib/errors";
import { isoNow } from "../../lib/time";
import { parseJson, parseQuery } from "../../lib/validate";
import { requireAdmin } from "../../middleware/require-admin";
import { notifyVerificationReview } from "../../services/notifications";
import { audit } from "../../services/audit";
import { toVerificationRequest } from ".";

export const verificationAdminRoutes = createRouter()
  .get("/all", async (c) => {
    await requireAdmin(c);
    const { status } = parseQuery(c, z.object({ status: z.enum(["pending", "unverified", "approved", "rejected"]).default("pending") }));
    const db = createDb(c.env);
    if (status === "unverified") {
      // Users who have not submitted a document.
      const rows = await db
        .select()
        .from(users)
        .where(
          and(
            eq(users.idVerificationStatus, "unverified"),
            notExists(db.select({ id: verificationRequests.id }).from(verificationRequests).where(eq(verificationRequests.userId, users.id))),
          ),
        )
        .orderBy(desc(users.createdAt))
        .limit(500);
      return c.json({
        data: rows.map((u) => ({ id: null, user_id: u.id, status: "unverified", user_email: u.email, user_name: `${u.firstName} ${u.lastName}`.trim(), submitted_at: null })),
      });
    }
    const rows = await db
      .select({ request: verificationRequests, email: users.email, first: users.firstName, last: users.lastName })
      .from(verificationRequests)
      .innerJoin(users, eq(users.id, verificationRequests.userId))
      .where(eq(verificationRequests.status, status))
      .orderBy(status === "pending" ? verificationRequests.submittedAt : desc(verificationRequests.submittedAt))
      .limit(500);
    return c.json({
      data: rows.map((r) => ({ ...toVerificationRequest(r.request), user_email: r.email, user_name: `${r.first} ${r.last}`.trim() })),
    });
  })

  .get("/:id/document", async (c) => {
    await requireAdmin(c);
    const row = await createDb(c.env).select().from(verificationRequests).where(eq(verificationRequests.id, c.req.param("id"))).get();
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
    const db = createDb(c.env);
    const id = c.req.param("id");
    const row = await db.select().from(verificationRequests).where(eq(verificationRequests.id, id)).get();
    if (!row) throw notFound("Verification request not found");
    // A decision applies to the user's latest request only: approving an old document after the
    // user sent a new one (or after a newer one was rejected) would decide the wrong thing.
    const latest = await db
      .select({ id: verificationRequests.id })
      .from(verificationRequests)
      .where(eq(verificationRequests.userId, row.userId))
      .orderBy(desc(verificationRequests.submittedAt), desc(verificationRequests.id))
      .get();
    if (latest?.id !== row.id) throw conflict("This user has sent a newer verification request. Review that one instead.");
    // A second identical decision is a harmless retry (answered below with changed: false); a
    // different decision on a reviewed request is refused.
    if (row.status !== "pending" && row.status !== review.status) throw conflict("This verification request was already reviewed.");
    const now = isoNow();
    const [changed] = await db.batch([
      db
        .update(verificationRequests)
        .set({ status: review.status, rejectionReason: review.status === "rejected" ? review.rejection_reason! : null, reviewedAt: now })
        // Guarded: only a pending request is decided, so of two staff deciding at once one wins.
        .where(and(eq(verificationRequests.id, id), eq(verificationRequests.status, "pending"))),
      db
        .update(users)
        .set({ idVerificationStatus: review.status === "approved" ? "verified" : "rejected", updatedAt: now })
        // Only when the guarded update above applied (it stamped reviewed_at with this instant).
        .where(
          and(
            eq(users.id, row.userId),
            exists(
              db
                .select({ id: verificationRequests.id })
                .from(verificationRequests)
                .where(and(eq(verificationRequests.id, id), eq(verificationRequests.reviewedAt, now), eq(verificationRequests.status, review.status))),
            ),
          ),
        ),
      audit(db, actor, `verification_${review.status}`, "verification_requests", id, review.rejection_reason ? { reason: review.rejection_reason } : undefined),
    ]);
    const updated = await db.select().from(verificationRequests).where(eq(verificationRequests.id, id)).get();
    // Lost a race to a different decision: say so rather than report a decision that did not apply.
    if (!changed.meta.changes && updated!.status !== review.status) throw conflict("This verification request was already reviewed.");
    if (changed.meta.changes) await notifyVerificationReview(c.env, c.var.config, row.userId, review.status === "approved", review.rejection_reason ?? null);
    return c.json({ success: true, changed: !!changed.meta.changes, data: toVerificationRequest(updated!) });
  });
