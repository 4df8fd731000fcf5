import { NextResponse } from "next/server";
import { sourceLogs } from "@/lib/ingest/source-state";
import { errorResponse } from "@/lib/server/errors";
import { guarded } from "@/lib/server/guard-response";

export const dynamic = "force-dynamic";

/** `{"sources":[{"source","logs":[{"name","size","mtimeMs"}]}]}` */
export const GET = guarded(async () => {
  try {
    return NextResponse.json({ sources: await sourceLogs() });
  } catch (err) {
    return errorResponse(err);
  }
});
