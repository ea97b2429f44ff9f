/**
 * Saved searches (docs/decisions/020): the calls shared by browse (save), the profile (list, rename, pause,
 * delete) and the unsubscribe page, with their query keys, and the short summary of a search's filters.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { University } from "@contract/api";
import type {
  AlertFrequency,
  SavedSearch,
  SavedSearchesResponse,
  SavedSearchPatch,
  SavedSearchResponse,
  SavedSearchUnsubscribeResponse,
} from "@contract/saved-searches";
import { apiRequest } from "./api-client";
import { browseFilterLabels } from "./browse-filter-labels";

export const savedSearchKeys = {
  all: ["saved-searches"] as const,
};

export const getSavedSearches = () => apiRequest<SavedSearchesResponse>("saved-searches/").then((r) => r.data);

export function useSavedSearches(enabled = true) {
  return useQuery({ queryKey: savedSearchKeys.all, queryFn: getSavedSearches, enabled });
}

export function useCreateSavedSearch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; query: string; alert_frequency: AlertFrequency }) =>
      apiRequest<SavedSearchResponse>("saved-searches/", { method: "POST", body: input }).then((r) => r.data),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedSearchKeys.all }),
  });
}

export function useUpdateSavedSearch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...patch }: SavedSearchPatch & { id: string }) =>
      apiRequest<SavedSearchResponse>(`saved-searches/${encodeURIComponent(id)}`, { method: "PATCH", body: patch }).then((r) => r.data),
    onSuccess: (updated) => {
      queryClient.setQueryData<SavedSearch[]>(savedSearchKeys.all, (all) => all?.map((s) => (s.id === updated.id ? updated : s)));
      return queryClient.invalidateQueries({ queryKey: savedSearchKeys.all });
    },
  });
}

export function useDeleteSavedSearch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>(`saved-searches/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: (_, id) => {
      queryClient.setQueryData<SavedSearch[]>(savedSearchKeys.all, (all) => all?.filter((s) => s.id !== id));
      return queryClient.invalidateQueries({ queryKey: savedSearchKeys.all });
    },
  });
}

/** What an unsubscribe link is about (its search's name and state), read when the page opens; changes nothing. */
export const unsubscribeLinkQuery = (token: string) =>
  queryOptions({
    queryKey: [...savedSearchKeys.all, "link", token] as const,
    queryFn: () => apiRequest<SavedSearchUnsubscribeResponse>("saved-searches/link", { method: "POST", auth: false, body: { token } }),
    enabled: token !== "",
    staleTime: Infinity,
  });

/** The unsubscribe link's Stop alerts (paused: true) and Undo (paused: false): no sign-in, the token is the permission. */
export function useUnsubscribeLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ token, paused }: { token: string; paused: boolean }) =>
      apiRequest<SavedSearchUnsubscribeResponse>(paused ? "saved-searches/unsubscribe" : "saved-searches/resubscribe", { method: "POST", auth: false, body: { token } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savedSearchKeys.all }),
  });
}

/** A search's filters in a few words ("UF", "Fall", "Up to $900"): the browse page's chip labels. */
export const describeSavedQuery = (query: string, universities: University[] | undefined): string[] =>
  browseFilterLabels(new URLSearchParams(query), universities).map((f) => f.label);

/** The name a new saved search starts with: its filters in words, within the name's 60 characters. */
export function defaultSearchName(query: string, universities: University[] | undefined, max = 60): string {
  const name = describeSavedQuery(query, universities).join(" · ") || "My search";
  return name.length > max ? `${name.slice(0, max - 1).trimEnd()}…` : name;
}
