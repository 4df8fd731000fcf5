import "server-only";
import { randomBytes } from "node:crypto";
import { NextResponse } from "next/server";

// Versions count up per journal: a tab that outlived a server (restarted on a rebuilt journal or
// another workspace) could hold one that matches by chance. Its ETag then names another server.
const SERVER_RUN = randomBytes(4).toString("hex");

/**
 * `answer()` with `etag`, or a 304 when the poll sent that ETag back (If-None-Match): the browser
 * keeps what it has, and nothing is built or serialized. `no-cache`: the browser always asks.
 */
export function withEtag(request: Request, etag: string, answer: () => Response): Response {
  const headers = { ETag: etag, "Cache-Control": "no-cache" };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  const response = answer();
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/** JSON for a value computed from the journal at `version` (see VersionedCache), behind an ETag naming this server run. */
export function jsonForVersion(request: Request, version: string, body: unknown): Response {
  return withEtag(request, `"${SERVER_RUN}-${version}"`, () => NextResponse.json(body));
}
