import { getMessage } from "@/lib/journal";
import { ApiError, errorResponse } from "@/lib/server/errors";
import { keySchema, parseOr400 } from "@/lib/server/params";
import { guarded } from "@/lib/server/guard-response";
import { orderedJsonResponse } from "@/lib/server/json";

export const dynamic = "force-dynamic";

export const GET = guarded(async (_request: Request, ctx: { params: Promise<{ key: string }> }) => {
  try {
    const key = parseOr400(keySchema, (await ctx.params).key, "bad_key");
    const message = await getMessage(key);
    if (!message) throw new ApiError(404, "not_found", `no message has the key "${key}"`);
    // In order: `ignite` lists its keys as the reference tool does, integer-like ones included.
    return orderedJsonResponse({ ...message });
  } catch (err) {
    return errorResponse(err);
  }
});
