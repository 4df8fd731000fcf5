import { streamRawMessage } from "@/lib/journal";
import { ApiError, errorResponse } from "@/lib/server/errors";
import { keySchema, parseOr400 } from "@/lib/server/params";
import { guarded } from "@/lib/server/guard-response";

export const dynamic = "force-dynamic";

export const GET = guarded(async (_request: Request, ctx: { params: Promise<{ key: string }> }) => {
  try {
    const key = parseOr400(keySchema, (await ctx.params).key, "bad_key");
    // Streamed from the file opened once and checked (lib/protocols/safe-open.ts), never read again by name.
    const raw = await streamRawMessage(key);
    if (!raw) throw new ApiError(404, "not_found", `no stored content for the message "${key}"`);
    // Always a download of plain bytes: never rendered as HTML by the browser.
    return new Response(raw.stream, {
      headers: {
        "Content-Type": "application/octet-stream",
        "Content-Length": String(raw.size),
        "Content-Disposition": `attachment; filename="${raw.fileName.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
        "X-Content-Type-Options": "nosniff",
      },
    });
  } catch (err) {
    return errorResponse(err);
  }
});
