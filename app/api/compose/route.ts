import { NextResponse } from "next/server";
import { compose, ComposeFieldsError, MAX_REQUEST_BYTES } from "@/lib/operations/compose";
import { composeForSource, protocolSourceOf } from "@/lib/operations/compose-protocols";
import { readJsonBody } from "@/lib/server/body";
import { errorResponse } from "@/lib/server/errors";
import { guarded } from "@/lib/server/guard-response";

export const dynamic = "force-dynamic";

/**
 * POST /api/compose: 201 {"items":[{key,path}]}; with "dryRun": true, 200 {"items":[{path,content,newQueue,warning}]}.
 * A `source` of another protocol than IGNITE v3 takes that protocol's fields.
 */
export const POST = guarded(async (request: Request) => {
  try {
    const origin = request.headers.get("origin") ?? request.headers.get("host") ?? "unknown origin";
    const raw = await readJsonBody(request, MAX_REQUEST_BYTES);
    const source = protocolSourceOf(raw);
    const result = source ? await composeForSource(raw as Record<string, unknown>, source, origin) : await compose(raw, origin);
    return NextResponse.json({ items: result.items }, { status: result.dryRun ? 200 : 201 });
  } catch (err) {
    if (err instanceof ComposeFieldsError) {
      return NextResponse.json({ error: { code: err.code, message: err.message, fields: err.fields } }, { status: 400 });
    }
    return errorResponse(err);
  }
});
