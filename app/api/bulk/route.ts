import { NextResponse } from "next/server";
import { bulkInputSchema } from "@/lib/actions";
import { runBulk } from "@/lib/operations";
import { actorOf, readJson } from "@/lib/server/action-request";
import { errorResponse } from "@/lib/server/errors";
import { parseOr400 } from "@/lib/server/params";
import { guarded } from "@/lib/server/guard-response";

export const dynamic = "force-dynamic";

/** An explicit list of keys (never a query); `dryRun` says what would happen without writing. */
export const POST = guarded(async (request: Request) => {
  try {
    const input = parseOr400(bulkInputSchema, await readJson(request));
    return NextResponse.json(await runBulk(input, actorOf(request)));
  } catch (err) {
    return errorResponse(err);
  }
});
