import { NextResponse } from "next/server";
import { pathInputSchema } from "@/lib/actions";
import { restoreMessage } from "@/lib/operations";
import { actorOf, readJson } from "@/lib/server/action-request";
import { errorResponse } from "@/lib/server/errors";
import { keySchema, parseOr400 } from "@/lib/server/params";
import { guarded } from "@/lib/server/guard-response";

export const dynamic = "force-dynamic";

export const POST = guarded(async (request: Request, ctx: { params: Promise<{ key: string }> }) => {
  try {
    const key = parseOr400(keySchema, (await ctx.params).key, "bad_key");
    const input = parseOr400(pathInputSchema, await readJson(request));
    return NextResponse.json(await restoreMessage(key, { ...input, actor: actorOf(request) }));
  } catch (err) {
    return errorResponse(err);
  }
});
