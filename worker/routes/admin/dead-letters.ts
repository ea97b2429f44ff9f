/** Staff: background work that failed every retry (docs/decisions/037), a page at a time. */
import { deadLetterCursorSchema, deadLettersQuerySchema, type DeadLettersResponse } from "../../contract/dead-letters";
import { createRouter } from "../../lib/context";
import { decodeCursor } from "../../lib/cursor";
import { parseQuery } from "../../lib/validate";
import { requireAdmin } from "../../middleware/require-admin";
import { deadLetterPage } from "../../services/background/dead-letters";

export const adminDeadLettersRoutes = createRouter().get("/dead-letters", async (c) => {
  await requireAdmin(c);
  const { limit, last_evaluated_key } = parseQuery(c, deadLettersQuerySchema);
  return c.json<DeadLettersResponse>(await deadLetterPage(c.var.db, limit, decodeCursor(last_evaluated_key, deadLetterCursorSchema)));
});
