import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ListResponse, University } from "@contract/api";
import { apiRequest } from "./api-client";

/** GET universities/ — reference data shared by browse, sign-up and the listing form. */
export const getUniversities = () =>
  apiRequest<ListResponse<University>>("universities/", { auth: false }).then((r) => r.data);

const HOUR_MS = 60 * 60 * 1000;

export const universitiesQuery = queryOptions({ queryKey: ["universities"], queryFn: getUniversities, staleTime: HOUR_MS });

export function useUniversities(options: { enabled?: boolean } = {}) {
  return useQuery({ ...universitiesQuery, ...options });
}

/** A university as the browse page's first screen shows it: its chip and the picker's value. */
export type UniversityShortName = Pick<University, "id" | "abbreviation">;

/**
 * One university's id and short name, made from the full list: the server render embeds this for the
 * university in the URL (docs/decisions/023) instead of every university with every field; the picker loads
 * the full list when it is opened.
 */
export const universityShortNameQuery = (id: string | null) =>
  queryOptions({
    queryKey: ["universities", "short-name", id],
    queryFn: async ({ client }): Promise<UniversityShortName | null> => {
      const found = (await client.fetchQuery(universitiesQuery)).find((u) => String(u.id) === id);
      return found ? { id: found.id, abbreviation: found.abbreviation } : null;
    },
    enabled: id !== null,
    staleTime: HOUR_MS,
  });

export function useUniversityShortName(id: string | null) {
  return useQuery(universityShortNameQuery(id));
}
