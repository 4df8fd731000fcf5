import { NextResponse } from "next/server";
import { actionRequestSchema } from "@/lib/actions";
import { planMessageAction } from "@/lib/operations";
import { ACTION_IDS, type ActionDryRun, type ActionId } from "@/lib/protocols/actions";
import { actorOf, readJson } from "@/lib/server/action-request";
import { ApiError, errorResponse } from "@/lib/server/errors";
import { keySchema, parseOr400 } from "@/lib/server/params";
import { guarded } from "@/lib/server/guard-response";

export const dynamic = "force-dynamic";

const isActionId = (id: string): id is ActionId => (ACTION_IDS as readonly string[]).includes(id);

/** Run one of the actions the message offers (its detail's `actions`); `dryRun` says what it would write. */
export const POST = guarded(async (request: Request, ctx: { params: Promise<{ key: string; action: string }> }) => {
  try {
    const params = await ctx.params;
    const key = parseOr400(keySchema, params.key, "bad_key");
    if (!isActionId(params.action)) throw new ApiError(404, "not_found", `there is no action "${params.action.slice(0, 64)}"; the message detail lists those it offers`);
    const { dryRun, ...input } = parseOr400(actionRequestSchema, await readJson(request));
    const plan = await planMessageAction(key, params.action, { ...input, actor: actorOf(request) });
    if (dryRun) {
      const answer: ActionDryRun = { dryRun: true, key, description: plan.description, path: plan.path, bytes: plan.bytes, warnings: plan.warnings };
      return NextResponse.json(answer);
    }
    return NextResponse.json({ ...(await plan.run()), warnings: plan.warnings });
  } catch (err) {
    return errorResponse(err);
  }
});
