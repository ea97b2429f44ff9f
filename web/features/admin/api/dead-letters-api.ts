/** Staff's "Failed jobs" (docs/decisions/037): background work that failed every retry, a page at a time. */
import { useInfiniteQuery } from "@tanstack/react-query";
import type { DeadLettersResponse } from "@contract/dead-letters";
import { adminRequest } from "./admin-api";
import { adminKeys } from "./admin-queries";

export const deadLetterKeys = {
  list: () => [...adminKeys.all, "dead-letters"] as const,
};

export const deadLettersApi = {
  list: (lastKey: string | null) => adminRequest<DeadLettersResponse>("admin/dead-letters", { query: { limit: 50, last_evaluated_key: lastKey } }),
};

export function useDeadLetters() {
  return useInfiniteQuery({
    queryKey: deadLetterKeys.list(),
    queryFn: ({ pageParam }) => deadLettersApi.list(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.pagination.has_more && last.pagination.next_token ? last.pagination.next_token : undefined),
  });
}
