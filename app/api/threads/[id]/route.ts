import { getThread, getThreadJson, threadIdAt } from "@/lib/journal";
import { withEtag } from "@/lib/server/etag";
import { ApiError, errorResponse } from "@/lib/server/errors";
import { parseOr400 } from "@/lib/server/params";
import { threadEtag } from "@/lib/threads/model";
import { threadParamSchema } from "@/lib/threads/params";
import { guarded } from "@/lib/server/guard-response";

export const dynamic = "force-dynamic";

/** The thread; a poll sending back the ETag gets a 304 while none of its messages changed. */
export const GET = guarded(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  try {
    const segment = parseOr400(threadParamSchema, (await ctx.params).id, "bad_thread_id");
    const id = threadIdAt(segment);
    const thread = id === null ? null : getThread(id);
    if (id === null || !thread) throw new ApiError(404, "not_found", `no thread has the id "${segment.slice(0, 200)}"`);
    return withEtag(request, threadEtag(thread), () => new Response(getThreadJson(id), { headers: { "Content-Type": "application/json" } }));
  } catch (err) {
    return errorResponse(err);
  }
});
