import { getVersionedStats } from "@/lib/journal";
import { jsonForVersion } from "@/lib/server/etag";
import { errorResponse } from "@/lib/server/errors";
import { guarded } from "@/lib/server/guard-response";

export const dynamic = "force-dynamic";

/** Agents × status counts; a poll sending back the ETag gets a 304 while nothing changed. */
export const GET = guarded((request: Request) => {
  try {
    const { version, stats } = getVersionedStats();
    return jsonForVersion(request, version, stats);
  } catch (err) {
    return errorResponse(err);
  }
});
