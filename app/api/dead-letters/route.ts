import { NextResponse } from "next/server";
import { deadLettersEtag } from "@/lib/actions";
import { listDeadLetters } from "@/lib/journal";
import { errorResponse } from "@/lib/server/errors";
import { guarded } from "@/lib/server/guard-response";

export const dynamic = "force-dynamic";

/** Every dead letter on disk; a poll sending back the ETag gets a 304 while nothing changed. */
export const GET = guarded((request: Request) => {
  try {
    const list = listDeadLetters();
    const etag = deadLettersEtag(list);
    const headers = { ETag: etag, "Cache-Control": "no-cache" };
    if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
    return NextResponse.json(list, { headers });
  } catch (err) {
    return errorResponse(err);
  }
});
