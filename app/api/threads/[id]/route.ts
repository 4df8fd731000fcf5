import { getThread, getThreadJson } from "@/lib/journal";
import { withEtag } from "@/lib/server/etag";
import { ApiError, errorResponse } from "@/lib/server/errors";
import { parseOr400 } from "@/lib/server/params";
import { threadEtag } from "@/lib/threads/model";
import { threadIdSchema } from "@/lib/threads/params";
import { guarded } from "@/lib/server/guard-response";

export const dynamic = "force-dynamic";

/** The thread; a poll sending back the ETag gets a 304 while none of its messages changed. */
export const GET = guarded(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  try {
    const id = parseOr400(threadIdSchema, (await ctx.params).id, "bad_thread_id");
    const thread = getThread(id);
    if (!thread) throw new ApiError(404, "not_found", `no thread has the id "${id}"`);
    return withEtag(request, threadEtag(thread), () => new Response(getThreadJson(id), { headers: { "Content-Type": "application/json" } }));
  } catch (err) {
    return errorResponse(err);
  }
});
