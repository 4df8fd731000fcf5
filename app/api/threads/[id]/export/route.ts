import { ApiError, errorResponse } from "@/lib/server/errors";
import { parseOr400, searchParamsObject } from "@/lib/server/params";
import { exportThread } from "@/lib/threads/export";
import { exportParamsSchema, threadParamSchema } from "@/lib/threads/params";
import { threadIdAt } from "@/lib/journal";
import { guarded } from "@/lib/server/guard-response";

export const dynamic = "force-dynamic";

/** The thread as a download: the API's JSON, a Markdown transcript, or a zip of the original files. */
export const GET = guarded(async (request: Request, ctx: { params: Promise<{ id: string }> }) => {
  try {
    const segment = parseOr400(threadParamSchema, (await ctx.params).id, "bad_thread_id");
    const { format } = parseOr400(exportParamsSchema, searchParamsObject(request.url));
    const id = threadIdAt(segment);
    const file = id === null ? null : await exportThread(id, format);
    if (!file) throw new ApiError(404, "not_found", `no thread has the id "${segment.slice(0, 200)}"`);
    return new Response(new Uint8Array(file.bytes), {
      headers: {
        "Content-Type": file.contentType,
        "Content-Disposition": `attachment; filename="${file.fileName}"`,
        "X-Content-Type-Options": "nosniff",
      },
    });
  } catch (err) {
    return errorResponse(err);
  }
});
