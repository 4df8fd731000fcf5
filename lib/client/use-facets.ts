import useSWR from "swr";
import { NO_FACETS, type FacetValues } from "./completion";
import { fetchJson, type ApiClientError } from "./fetcher";
import { keys } from "./keys";

/**
 * The search box's completion values (agents, types, priorities, recent threads). Fetched only
 * once `enabled` (the box has focus), then kept for a minute: they change slowly.
 */
export function useFacets(enabled: boolean) {
  const res = useSWR<FacetValues, ApiClientError | Error>(enabled ? keys.facets : null, fetchJson<FacetValues>, {
    revalidateOnFocus: false,
    dedupingInterval: 60_000,
    keepPreviousData: true,
  });
  return { ...res, facets: res.data ?? NO_FACETS };
}
