import { NextResponse } from "next/server";
import { compose, ComposeFieldsError, MAX_REQUEST_BYTES } from "@/lib/operations/compose";
import { readJsonBody } from "@/lib/server/body";
import { errorResponse } from "@/lib/server/errors";
import { guarded } from "@/lib/server/guard-response";

export const dynamic = "force-dynamic";

/** POST /api/compose: 201 {"items":[{key,path}]}; with "dryRun": true, 200 {"items":[{path,content,newQueue}]}. */
export const POST = guarded(async (request: Request) => {
  try {
    const origin = request.headers.get("origin") ?? request.headers.get("host") ?? "unknown origin";
    const result = await compose(await readJsonBody(request, MAX_REQUEST_BYTES), origin);
    return NextResponse.json({ items: result.items }, { status: result.dryRun ? 200 : 201 });
  } catch (err) {
    if (err instanceof ComposeFieldsError) {
      return NextResponse.json({ error: { code: err.code, message: err.message, fields: err.fields } }, { status: 400 });
    }
    return errorResponse(err);
  }
});
