/** Staff's site-wide tools: statistics, deleting any item, reading conversations (paged, read-only). */
import { z } from "zod";
import { DELETABLE_TABLES, deleteItemSchema, staffPageSchema, type AdminConversationsResponse, type AdminMessagesResponse, type AdminStatsResponse, type DeleteItemResponse } from "../../contract/admin";
import { messagesOf } from "../../db/queries/conversations";
import { createRouter } from "../../lib/context";
import { badRequest } from "../../lib/errors";
import { decodeCursor, keysetPage } from "../../lib/cursor";
import { parseJson, parseQuery } from "../../lib/validate";
import { requireAdmin } from "../../middleware/require-admin";
import { deleteItem, siteStats } from "../../services/admin";
import { staffConversations } from "../../services/staff-lists";

const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(100),
  last_evaluated_key: z.string().max(300).optional(),
});
const messageCursor = z.object({ c: z.iso.datetime(), id: z.string().min(1).max(64) });

const isDeletable = (table: string): table is (typeof DELETABLE_TABLES)[number] => (DELETABLE_TABLES as readonly string[]).includes(table);

export const adminSiteRoutes = createRouter()
  .get("/stats", async (c) => {
    await requireAdmin(c);
    return c.json<AdminStatsResponse>({ stats: await siteStats(c.var.db) });
  })

  .delete("/delete-item", async (c) => {
    const actor = await requireAdmin(c);
    const { tableName, itemId } = await parseJson(c, deleteItemSchema);
    if (!isDeletable(tableName)) throw badRequest(`Unknown table: ${tableName}`);
    await deleteItem(c.var.db, c.env, actor, tableName, itemId);
    return c.json<DeleteItemResponse>({ success: true, message: "Item deleted successfully" });
  })

  // Read-only: staff read conversations for moderation; the only write is delete-item.
  .get("/conversations", async (c) => {
    await requireAdmin(c);
    const { items, pagination } = await staffConversations(c.var.db, parseQuery(c, staffPageSchema));
    return c.json<AdminConversationsResponse>({
      pagination,
      conversations: items.map((r) => ({
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
    const { limit, last_evaluated_key } = parseQuery(c, pageQuery);
    const cursor = decodeCursor(last_evaluated_key, messageCursor);
    const { items, pagination } = keysetPage(await messagesOf(c.var.db, c.req.param("id"), cursor, limit + 1), limit, (last) => ({ c: last.createdAt, id: last.id }));
    return c.json<AdminMessagesResponse>({
      pagination,
      messages: items.map((m) => ({ id: m.id, sender_id: m.senderId, text: m.text, timestamp: m.createdAt, is_read: !!m.readAt, conversation_id: m.conversationId })),
    });
  });
