import { NextResponse } from "next/server";
import { getVersionedStats } from "@/lib/journal";
import { errorResponse } from "@/lib/server/errors";
import { guarded } from "@/lib/server/guard-response";

export const dynamic = "force-dynamic";

/** Agents × status counts; a poll sending back the ETag gets a 304 while nothing changed. */
export const GET = guarded((request: Request) => {
  try {
    const { version, stats } = getVersionedStats();
    const etag = `"${version}"`;
    const headers = { ETag: etag, "Cache-Control": "no-cache" };
    if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
    return NextResponse.json(stats, { headers });
  } catch (err) {
    return errorResponse(err);
  }
});
