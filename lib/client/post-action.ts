import type { BulkInput, BulkResponse } from "@/lib/actions";
import { toApiClientError } from "./fetcher";
import { keys } from "./keys";

/** POST JSON to the API. Throws ApiClientError (with the server's code and message) on a non-2xx answer. */
export async function postJson<T>(url: string, body: unknown): Promise<T> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body ?? {}),
    cache: "no-store",
  });
  if (!res.ok) throw await toApiClientError(res);
  return (await res.json()) as T;
}

/** An explicit list of keys; `dryRun` asks what would happen without writing. */
export function postBulk(input: BulkInput): Promise<BulkResponse> {
  return postJson<BulkResponse>(keys.bulk, input);
}
