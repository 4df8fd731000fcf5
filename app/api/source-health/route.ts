import { NextResponse } from "next/server";
import { sourcesHealth } from "@/lib/ingest/source-state";
import { errorResponse } from "@/lib/server/errors";
import { guarded } from "@/lib/server/guard-response";

export const dynamic = "force-dynamic";

/** `{"sources":[{"source","health":{"monitor","agents","session"}|null}]}`: is each workspace's team alive. */
export const GET = guarded(async () => {
  try {
    return NextResponse.json({ sources: await sourcesHealth() });
  } catch (err) {
    return errorResponse(err);
  }
});
