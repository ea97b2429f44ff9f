/**
 * The staff API (token from admin/login as ?token= or a bearer header; any bad or expired token is
 * 401). Reviews are guarded updates, so two admins or a retry cannot apply one twice; every action
 * is written to admin_audit.
 */
import { and, count, desc, eq, gte, isNotNull, lt, ne, sql } from "drizzle-orm";
import { adminListingEditSchema, adminLoginSchema, adminUserStatusSchema, DELETABLE_TABLES, deleteItemSchema, reviewSchema, type AdminStats } from "../../contract/admin";
import { createDb } from "../../db/client";
import { LISTING_COLUMNS, LISTING_FROM, rowsToListings, type ListingRow } from "../../db/queries/listings";
import { findUserById, listUsers, toPrivateUser } from "../../db/queries/users";
import { adminAudit, conversations, feedback, listings, messages, users, verificationRequests } from "../../db/schema";
import { timingSafeEqualText, sha256Hex } from "../../lib/encoding";
import { badRequest, notFound } from "../../lib/errors";
import { createRouter } from "../../lib/context";
import { isoIn, isoNow } from "../../lib/time";
import { parseJson } from "../../lib/validate";
import { addressKey, clientIp, enforceLimit } from "../../middleware/rate-limit";
import { requireAdmin, revokeAdminToken, signAdminToken } from "../../middleware/require-admin";
import { deleteAccount } from "../../services/accounts";
import { audit } from "../../services/audit";
import { notifyListingReview } from "../../services/notifications";
import { deleteObjects } from "../../services/storage";
import { deleteListing } from "../listings";

const DAY_MS = 86_400_000;
const ADMIN_PROMOTION_DAYS = 7;

async function listingsWhere(env: Env, where: string, binds: unknown[] = [], order = "l.created_at DESC") {
  const { results } = await env.DB.prepare(`SELECT ${LISTING_COLUMNS} FROM ${LISTING_FROM} WHERE ${where} ORDER BY ${order} LIMIT 500`)
    .bind(...binds)
    .all<ListingRow>();
  // Admin views read price and location as display aliases (spec, section 3).
  return (await rowsToListings(env.DB, results)).map((l) => ({ ...l, price: l.monthly_rent, location: l.address }));
}

export const adminRoutes = createRouter()
  .post("/login", async (c) => {
    // Its own limiters: per address, and one for the whole world, since a single shared password
    // is what a distributed guesser would aim at.
    await enforceLimit(c, "ADMIN_LOGIN_LIMITER", addressKey(clientIp(c)));
    await enforceLimit(c, "ADMIN_LOGIN_GLOBAL_LIMITER", "all");
    const { password } = await parseJson(c, adminLoginSchema);
    // Compare digests in constant time: neither length nor prefix of the secret leaks.
    const ok = timingSafeEqualText(await sha256Hex(password), await sha256Hex(c.var.config.adminPassword));
    if (!ok) return c.json({ success: false, detail: "Invalid password" }, 401);
    const token = await signAdminToken(c.var.config.jwtSecret);
    await audit(createDb(c.env), "admin", "login", null, null);
    return c.json({ success: true, token });
  })

  .post("/logout", async (c) => {
    const actor = await revokeAdminToken(c);
    await audit(createDb(c.env), actor, "logout", null, null);
    return c.body(null, 204);
  })

  .get("/tables", async (c) => {
    await requireAdmin(c);
    return c.json({ tables: DELETABLE_TABLES });
  })

  .get("/audit", async (c) => {
    await requireAdmin(c);
    const rows = await createDb(c.env).select().from(adminAudit).orderBy(desc(adminAudit.createdAt)).limit(200);
    return c.json({ audit: rows.map((r) => ({ id: r.id, actor: r.actor, action: r.action, table: r.targetTable, item_id: r.targetId, details: r.details, created_at: r.createdAt })) });
  })

  .get("/users", async (c) => {
    await requireAdmin(c);
    return c.json({ users: (await listUsers(createDb(c.env), 1000)).map(toPrivateUser) });
  })

  .get("/listings", async (c) => {
    await requireAdmin(c);
    return c.json({ listings: await listingsWhere(c.env, "1 = 1") });
  })
  .get("/listings/pending", async (c) => {
    await requireAdmin(c);
    return c.json({ listings: await listingsWhere(c.env, "l.verification_status = 'pending'", [], "l.created_at ASC") });
  })
  .get("/listings/promoted", async (c) => {
    await requireAdmin(c);
    return c.json({ listings: await listingsWhere(c.env, "l.promotion_end IS NOT NULL", [], "l.promotion_end ASC") });
  })

  .get("/stats", async (c) => {
    await requireAdmin(c);
    const db = createDb(c.env);
    const since = new Date(Date.now() - 9 * DAY_MS);
    since.setUTCHours(0, 0, 0, 0);
    const [[u], [l], [conv], [msg], growth] = await db.batch([
      db.select({ n: count() }).from(users),
      db.select({ n: count() }).from(listings),
      db.select({ n: count() }).from(conversations),
      db.select({ n: count() }).from(messages),
      db
        .select({ day: sql<string>`substr(${users.createdAt}, 1, 10)`, n: count() })
        .from(users)
        .where(gte(users.createdAt, since.toISOString()))
        .groupBy(sql`substr(${users.createdAt}, 1, 10)`),
    ]);
    const byDay = new Map(growth.map((g) => [g.day, g.n]));
    const stats: AdminStats = {
      users: u?.n ?? 0,
      listings: l?.n ?? 0,
      conversations: conv?.n ?? 0,
      messages: msg?.n ?? 0,
      user_growth: Array.from({ length: 10 }, (_, i) => {
        const date = new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10);
        return { date, users: byDay.get(date) ?? 0 };
      }),
    };
    return c.json({ stats });
  })

  .patch("/listings/:id/verify", async (c) => {
    const actor = await requireAdmin(c);
    const review = await parseJson(c, reviewSchema);
    const db = createDb(c.env);
    const id = c.req.param("id");
    const row = await db.select().from(listings).where(eq(listings.id, id)).get();
    if (!row) throw notFound("Listing not found");
    const now = Date.now();
    const startsPromotion = review.status === "approved" && row.promotionPendingDays;
    const [changed] = await db.batch([
      db
        .update(listings)
        .set({
          verificationStatus: review.status,
          rejectionReason: review.status === "rejected" ? review.rejection_reason! : null,
          ...(startsPromotion && {
            promotionStart: isoNow(now),
            promotionEnd: isoIn(row.promotionPendingDays! * DAY_MS, now),
            promotionPendingDays: null,
          }),
          updatedAt: isoNow(now),
        })
        // Guarded: approving an approved listing (or a retry) changes nothing and sends nothing.
        .where(and(eq(listings.id, id), ne(listings.verificationStatus, review.status))),
      audit(db, actor, `listing_${review.status}`, "listings", id, review.rejection_reason ? { reason: review.rejection_reason } : undefined),
    ]);
    if (changed.meta.changes) {
      await notifyListingReview(c.env, c.var.config, row.userId, row.title, review.status === "approved", review.rejection_reason ?? null);
    }
    const [listing] = await listingsWhere(c.env, "l.id = ?", [id]);
    return c.json({ success: true, changed: !!changed.meta.changes, listing });
  })

  .patch("/listings/:id", async (c) => {
    const actor = await requireAdmin(c);
    const edit = await parseJson(c, adminListingEditSchema);
    const db = createDb(c.env);
    const id = c.req.param("id");
    const [res] = await db.batch([
      db
        .update(listings)
        .set({
          ...(edit.title !== undefined && { title: edit.title }),
          ...(edit.description !== undefined && { description: edit.description }),
          ...(edit.monthly_rent !== undefined && { monthlyRent: edit.monthly_rent }),
          ...(edit.moderation_status !== undefined && { moderationStatus: edit.moderation_status }),
          updatedAt: isoNow(),
        })
        .where(eq(listings.id, id)),
      audit(db, actor, "listing_edit", "listings", id, edit),
    ]);
    if (!res.meta.changes) throw notFound("Listing not found");
    const [listing] = await listingsWhere(c.env, "l.id = ?", [id]);
    return c.json({ success: true, listing });
  })

  .post("/listings/verify-all", async (c) => {
    const actor = await requireAdmin(c);
    const db = createDb(c.env);
    const pending = await db.select({ id: listings.id, userId: listings.userId, title: listings.title }).from(listings).where(eq(listings.verificationStatus, "pending"));
    const [updated] = await db.batch([
      db.update(listings).set({ verificationStatus: "approved", rejectionReason: null, updatedAt: isoNow() }).where(eq(listings.verificationStatus, "pending")),
      audit(db, actor, "listings_verify_all", "listings", null, { count: pending.length }),
    ]);
    for (const p of pending) await notifyListingReview(c.env, c.var.config, p.userId, p.title, true, null);
    return c.json({ verified_count: updated.meta.changes ?? 0, total_listings: pending.length });
  })

  .post("/listings/:id/promote", async (c) => {
    const actor = await requireAdmin(c);
    const db = createDb(c.env);
    const id = c.req.param("id");
    const row = await db.select({ status: listings.verificationStatus }).from(listings).where(eq(listings.id, id)).get();
    if (!row) throw notFound("Listing not found");
    if (row.status !== "approved") throw badRequest("Only approved listings can be promoted");
    const now = Date.now();
    await db.batch([
      db
        .update(listings)
        .set({ promotionStart: isoNow(now), promotionEnd: isoIn(ADMIN_PROMOTION_DAYS * DAY_MS, now), promotionSource: "admin", autoRenew: false, updatedAt: isoNow(now) })
        .where(eq(listings.id, id)),
      audit(db, actor, "listing_promote", "listings", id),
    ]);
    return c.json({ success: true, promotion_end: isoIn(ADMIN_PROMOTION_DAYS * DAY_MS, now) });
  })

  .post("/listings/:id/unpromote", async (c) => {
    const actor = await requireAdmin(c);
    const db = createDb(c.env);
    const id = c.req.param("id");
    const [res] = await db.batch([
      db
        .update(listings)
        .set({ promotionStart: null, promotionEnd: null, promotionSource: null, promotionPendingDays: null, autoRenew: false, updatedAt: isoNow() })
        .where(eq(listings.id, id)),
      audit(db, actor, "listing_unpromote", "listings", id),
    ]);
    if (!res.meta.changes) throw notFound("Listing not found");
    return c.json({ success: true });
  })

  .post("/cleanup-expired-promotions", async (c) => {
    const actor = await requireAdmin(c);
    const db = createDb(c.env);
    const [res] = await db.batch([
      db
        .update(listings)
        .set({ promotionStart: null, promotionEnd: null, promotionSource: null, updatedAt: isoNow() })
        .where(and(eq(listings.promotionSource, "admin"), isNotNull(listings.promotionEnd), lt(listings.promotionEnd, isoNow()))),
      audit(db, actor, "cleanup_expired_promotions", "listings", null),
    ]);
    return c.json({ expired_count: res.meta.changes ?? 0 });
  })

  .patch("/users/:id/verify", async (c) => {
    const actor = await requireAdmin(c);
    const { verification_status } = await parseJson(c, adminUserStatusSchema);
    const db = createDb(c.env);
    const id = c.req.param("id");
    const [res] = await db.batch([
      db.update(users).set({ idVerificationStatus: verification_status, updatedAt: isoNow() }).where(eq(users.id, id)),
      audit(db, actor, "user_verification_status", "users", id, { verification_status }),
    ]);
    if (!res.meta.changes) throw notFound("User not found");
    return c.json({ success: true, user: toPrivateUser((await findUserById(db, id))!) });
  })

  .delete("/delete-item", async (c) => {
    const actor = await requireAdmin(c);
    const { tableName, itemId } = await parseJson(c, deleteItemSchema);
    if (!(DELETABLE_TABLES as readonly string[]).includes(tableName)) throw badRequest(`Unknown table: ${tableName}`);
    const db = createDb(c.env);
    const missing = () => notFound("Item not found");
    switch (tableName) {
      case "users": {
        const user = await findUserById(db, itemId);
        if (!user) throw missing();
        await deleteAccount(c.env, user);
        break;
      }
      case "listings": {
        if (!(await db.select({ id: listings.id }).from(listings).where(eq(listings.id, itemId)).get())) throw missing();
        await deleteListing(c.env, itemId);
        break;
      }
      case "verification_requests": {
        const row = await db.select().from(verificationRequests).where(eq(verificationRequests.id, itemId)).get();
        if (!row) throw missing();
        await db.delete(verificationRequests).where(eq(verificationRequests.id, itemId));
        await deleteObjects(c.env.ID_DOCUMENTS, [row.documentKey]);
        break;
      }
      default: {
        const table = { feedback, conversations, messages }[tableName as "feedback" | "conversations" | "messages"];
        const res = await db.delete(table).where(eq(table.id, itemId));
        if (!res.meta.changes) throw missing();
      }
    }
    await audit(db, actor, "delete_item", tableName, itemId);
    return c.json({ success: true, message: "Item deleted successfully" });
  })

  .get("/conversations", async (c) => {
    await requireAdmin(c);
    const rows = await createDb(c.env).select().from(conversations).orderBy(desc(conversations.updatedAt)).limit(500);
    return c.json({
      conversations: rows.map((r) => ({
        id: r.id,
        participants: [r.userA, r.userB],
        listing_id: r.listingId,
        latest_message_preview: r.lastMessagePreview,
        last_message_timestamp: r.lastMessageAt,
        created_at: r.createdAt,
      })),
    });
  })

  .get("/conversations/:id/messages", async (c) => {
    await requireAdmin(c);
    const rows = await createDb(c.env).select().from(messages).where(eq(messages.conversationId, c.req.param("id"))).orderBy(messages.createdAt).limit(1000);
    return c.json({
      messages: rows.map((m) => ({ id: m.id, sender_id: m.senderId, text: m.text, timestamp: m.createdAt, is_read: !!m.readAt, conversation_id: m.conversationId })),
    });
  });

