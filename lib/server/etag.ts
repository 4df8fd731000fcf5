import "server-only";
import { randomBytes } from "node:crypto";
import { NextResponse } from "next/server";

// Versions count up per journal: a tab that outlived a server (restarted on a rebuilt journal or
// another workspace) could hold one that matches by chance. Its ETag then names another server.
const SERVER_RUN = randomBytes(4).toString("hex");

/**
 * JSON with an ETag for its version, or a 304 when the poll sent that ETag back (If-None-Match):
 * the browser keeps what it has, and nothing is serialized.
 */
export function jsonForVersion(request: Request, version: string, body: unknown): Response {
  const etag = `"${SERVER_RUN}-${version}"`;
  const headers = { ETag: etag, "Cache-Control": "no-cache" };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return NextResponse.json(body, { headers });
}
