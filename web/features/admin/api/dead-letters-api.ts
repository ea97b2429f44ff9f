/** Staff's "Failed jobs" (docs/decisions/037): background work that failed every retry, a page at a time. */
import type { DeadLettersResponse } from "@contract/dead-letters";
import { adminRequest, pageOf } from "./admin-api";
import { adminKeys, useStaffList } from "./admin-queries";

export const deadLetterKeys = {
  list: () => [...adminKeys.all, "dead-letters"] as const,
};

export const deadLettersApi = {
  list: (lastKey: string | null) => adminRequest<DeadLettersResponse>("admin/dead-letters", { query: { limit: 50, last_evaluated_key: lastKey } }),
};

export const useDeadLetters = () => useStaffList(deadLetterKeys.list(), (cursor) => deadLettersApi.list(cursor).then((r) => pageOf(r.dead_letters, r.pagination)));
