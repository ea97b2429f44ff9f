/** A person as anyone may see them (GET users/{id}): a listing's owner (also read by the server render), a renter on a request card, yourself on your profile. */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { PublicUserResponse } from "@contract/users";
import { apiRequest } from "./api-client";

export const userKeys = {
  public: (id: string | undefined) => ["users", id] as const,
};

export const publicUserQuery = (id: string | undefined) =>
  queryOptions({
    queryKey: userKeys.public(id),
    queryFn: () => apiRequest<PublicUserResponse>(`users/${encodeURIComponent(id!)}`, { auth: false }).then((r) => r.data),
    enabled: !!id,
  });

export function usePublicUser(id: string | undefined) {
  return useQuery(publicUserQuery(id));
}
