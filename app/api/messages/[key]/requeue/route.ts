import { NextResponse } from "next/server";
import { requeueInputSchema } from "@/lib/actions";
import { requeueMessage } from "@/lib/operations";
import { actorOf, readJson } from "@/lib/server/action-request";
import { errorResponse } from "@/lib/server/errors";
import { keySchema, parseOr400 } from "@/lib/server/params";
import { guarded } from "@/lib/server/guard-response";

export const dynamic = "force-dynamic";

export const POST = guarded(async (request: Request, ctx: { params: Promise<{ key: string }> }) => {
  try {
    const key = parseOr400(keySchema, (await ctx.params).key, "bad_key");
    const input = parseOr400(requeueInputSchema, await readJson(request));
    return NextResponse.json(await requeueMessage(key, { ...input, actor: actorOf(request) }));
  } catch (err) {
    return errorResponse(err);
  }
});
