import { NextResponse, type NextRequest } from "next/server";
import { z } from "zod";
import { readSourceLog } from "@/lib/ingest/source-state";
import { ApiError, errorResponse } from "@/lib/server/errors";
import { guarded } from "@/lib/server/guard-response";
import { parseOr400 } from "@/lib/server/params";
import { sourceFileParams } from "@/lib/server/source-params";

export const dynamic = "force-dynamic";

const fromSchema = z.coerce.number({ message: "from: must be a byte offset" }).int("from: must be a whole number").min(-1, "from: must be -1 (the tail) or more").default(-1);

/** `?from=N` (default -1, the tail) → `{"text","from","to","size"}`, whole lines, colour codes stripped. */
export const GET = guarded(async (request: NextRequest, ctx: { params: Promise<{ source: string; name: string }> }) => {
  try {
    const { source, name } = parseOr400(sourceFileParams, await ctx.params, "bad_name");
    const from = parseOr400(fromSchema, request.nextUrl.searchParams.get("from") ?? undefined, "bad_from");
    const slice = await readSourceLog(source, name, from);
    if (!slice) throw new ApiError(404, "not_found", `no log "${name}" in source "${source}"`);
    return NextResponse.json(slice);
  } catch (err) {
    return errorResponse(err);
  }
});
