import type { NextRequest } from "next/server";
import { listThreads } from "@/lib/journal";
import { jsonForVersion } from "@/lib/server/etag";
import { errorResponse } from "@/lib/server/errors";
import { parseOr400, searchParamsObject } from "@/lib/server/params";
import { threadListParamsSchema } from "@/lib/threads/params";
import { guarded } from "@/lib/server/guard-response";

export const dynamic = "force-dynamic";

/** Threads, newest activity first; a poll sending back the ETag gets a 304 while the journal is unchanged. */
export const GET = guarded((request: NextRequest) => {
  try {
    const params = parseOr400(threadListParamsSchema, searchParamsObject(request.url));
    const list = listThreads(params);
    // The list is computed once per version (lib/journal/threads.ts): it names this answer for this address.
    return jsonForVersion(request, list.version, list);
  } catch (err) {
    return errorResponse(err);
  }
});
