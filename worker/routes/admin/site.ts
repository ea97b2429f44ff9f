/** Staff's site-wide tools: statistics, deleting any item, reading conversations. */
import { DELETABLE_TABLES, deleteItemSchema, type AdminConversationsResponse, type AdminMessagesResponse, type AdminStatsResponse, type DeleteItemResponse } from "../../contract/admin";
import { createDb } from "../../db/client";
import { messagesOf, recentConversations } from "../../db/queries/conversations";
import { createRouter } from "../../lib/context";
import { badRequest } from "../../lib/errors";
import { parseJson } from "../../lib/validate";
import { requireAdmin } from "../../middleware/require-admin";
import { deleteItem, siteStats } from "../../services/admin";

const isDeletable = (table: string): table is (typeof DELETABLE_TABLES)[number] => (DELETABLE_TABLES as readonly string[]).includes(table);

export const adminSiteRoutes = createRouter()
  .get("/stats", async (c) => {
    await requireAdmin(c);
    return c.json<AdminStatsResponse>({ stats: await siteStats(c.env) });
  })

  .delete("/delete-item", async (c) => {
    const actor = await requireAdmin(c);
    const { tableName, itemId } = await parseJson(c, deleteItemSchema);
    if (!isDeletable(tableName)) throw badRequest(`Unknown table: ${tableName}`);
    await deleteItem(c.env, actor, tableName, itemId);
    return c.json<DeleteItemResponse>({ success: true, message: "Item deleted successfully" });
  })

  .get("/conversations", async (c) => {
    await requireAdmin(c);
    const rows = await recentConversations(createDb(c.env));
    return c.json<AdminConversationsResponse>({
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
    const rows = await messagesOf(createDb(c.env), c.req.param("id"));
    return c.json<AdminMessagesResponse>({
      messages: rows.map((m) => ({ id: m.id, sender_id: m.senderId, text: m.text, timestamp: m.createdAt, is_read: !!m.readAt, conversation_id: m.conversationId })),
    });
  });
