import type { ApiErrorBody } from "@/lib/model";

/** A non-2xx answer from the Mailroom API, with the server's own code and message. */
export class ApiClientError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ApiClientError";
  }
}

function isErrorBody(value: unknown): value is ApiErrorBody {
  if (typeof value !== "object" || value === null || !("error" in value)) return false;
  const error: unknown = value.error;
  return (
    typeof error === "object" &&
    error !== null &&
    "code" in error &&
    "message" in error &&
    typeof error.code === "string" &&
    typeof error.message === "string"
  );
}

/** Turns a failed response into an ApiClientError, using the `{"error":{code,message}}` shape when present. */
export async function toApiClientError(res: Response): Promise<ApiClientError> {
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    // Not JSON (a proxy page, an empty body): fall back to the status line.
  }
  if (isErrorBody(body)) return new ApiClientError(res.status, body.error.code, body.error.message);
  return new ApiClientError(res.status, "http_" + res.status, `The server answered ${res.status} ${res.statusText}`.trim());
}

/** GET a JSON resource of the API. Throws ApiClientError on a non-2xx answer. */
export async function fetchJson<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, { headers: { accept: "application/json" }, cache: "no-store", ...init });
  if (!res.ok) throw await toApiClientError(res);
  return (await res.json()) as T;
}

/**
 * A fetcher for a resource with an ETag: it asks "changed since?" (If-None-Match) and hands back
 * the very same object on a 304, so nothing re-renders. `etagOf` gives the ETag of the server
 * render's data when the client can work it out (else the first poll gets the whole answer). An
 * ETag is only ever sent back to the address that gave it (the first address asked is the server
 * render's): a list's search can change, and another search's answer must not pass for this one's.
 */
export function conditionalFetcher<T>(initial: T, etagOf: (data: T) => string | null = () => null) {
  let last: { url: string | null; etag: string | null; data: T } = { url: null, etag: etagOf(initial), data: initial };
  return async (url: string): Promise<T> => {
    // What this request asks against: another address's answer may land in `last` while it is out.
    const sent = last.etag && (last.url ?? url) === url ? last : null;
    const headers: Record<string, string> = { accept: "application/json" };
    if (sent?.etag) headers["if-none-match"] = sent.etag;
    const res = await fetch(url, { headers, cache: "no-store" });
    if (res.status === 304) {
      if (!sent) throw new ApiClientError(304, "http_304", "The server answered 304 to a request that named no version");
      return sent.data;
    }
    if (!res.ok) throw await toApiClientError(res);
    const data = (await res.json()) as T;
    last = { url, etag: res.headers.get("etag") ?? etagOf(data), data };
    return data;
  };
}

/** GET a text resource (e.g. a raw message file). Throws ApiClientError on a non-2xx answer. */
export async function fetchText(url: string): Promise<string> {
  const res = await fetch(url, { cache: "no-store" });
  if (!res.ok) throw await toApiClientError(res);
  return res.text();
}

/** A message fit for a person, whatever was thrown. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiClientError) return err.message;
  if (err instanceof TypeError) return "Mailroom is not reachable (network error). Retrying…";
  if (err instanceof Error) return err.message;
  return String(err);
}
