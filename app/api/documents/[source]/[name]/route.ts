import { NextResponse } from "next/server";
import { MAX_DOCUMENT_BYTES, readSourceDocument } from "@/lib/ingest/source-state";
import { ApiError, errorResponse } from "@/lib/server/errors";
import { guarded } from "@/lib/server/guard-response";
import { parseOr400 } from "@/lib/server/params";
import { sourceFileParams } from "@/lib/server/source-params";

export const dynamic = "force-dynamic";

/** `{"source","name","relPath","text"}`: a file the agents keep for people (shogun's dashboard.md), as text. */
export const GET = guarded(async (_request: Request, ctx: { params: Promise<{ source: string; name: string }> }) => {
  try {
    const { source, name } = parseOr400(sourceFileParams, await ctx.params, "bad_name");
    const doc = await readSourceDocument(source, name);
    if (!doc) throw new ApiError(404, "not_found", `no document "${name}" in source "${source}"`);
    if (doc.text === null) throw new ApiError(413, "too_large", `${doc.relPath} is larger than ${MAX_DOCUMENT_BYTES / (1024 * 1024)} MiB; Mailroom does not show it.`);
    return NextResponse.json(doc);
  } catch (err) {
    return errorResponse(err);
  }
});
