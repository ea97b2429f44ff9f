import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ListResponse, University } from "@contract/api";
import { apiRequest } from "./api-client";

/** GET universities/ — reference data shared by browse, sign-up and the listing form. */
export const getUniversities = () =>
  apiRequest<ListResponse<University>>("universities/", { auth: false }).then((r) => r.data);

export const universitiesQuery = queryOptions({ queryKey: ["universities"], queryFn: getUniversities, staleTime: 60 * 60 * 1000 });

export function useUniversities() {
  return useQuery(universitiesQuery);
}
