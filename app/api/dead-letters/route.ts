import { listDeadLetters } from "@/lib/journal";
import { jsonForVersion } from "@/lib/server/etag";
import { errorResponse } from "@/lib/server/errors";
import { guarded } from "@/lib/server/guard-response";

export const dynamic = "force-dynamic";

/** Every dead letter on disk; a poll sending back the ETag gets a 304 while nothing changed. */
export const GET = guarded((request: Request) => {
  try {
    const list = listDeadLetters();
    // The list is exactly as of its seq, so the seq is its version.
    return jsonForVersion(request, String(list.seq), list);
  } catch (err) {
    return errorResponse(err);
  }
});
