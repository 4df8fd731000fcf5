import "server-only";
import { MAX_BODY_CHARS } from "@/lib/actions";
import { readBodyText } from "./body";
import { ApiError } from "./errors";

/** Room for the largest edited body, JSON-escaped. */
const MAX_REQUEST_BYTES = MAX_BODY_CHARS * 2 + 64 * 1024;

/**
 * The request's JSON body ({} when empty); a 413 when too large, counted while it streams (reading
 * it whole first let a chunked 300 MB body take 1 GB of memory), a 400 when not JSON.
 */
export async function readJson(request: Request): Promise<unknown> {
  const text = await readBodyText(request, MAX_REQUEST_BYTES);
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, "bad_json", "the request body must be a JSON object");
  }
}

/** Where a change came from, for the message's history: the Origin the proxy checked, else the Host. */
export function actorOf(request: Request): string {
  const from = request.headers.get("origin") ?? request.headers.get("host") ?? "an unknown client";
  return from.replace(/[\0-\x1f\x7f]/g, "").slice(0, 200);
}
