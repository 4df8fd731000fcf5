import { NextResponse } from "next/server";
import { sourceDocuments } from "@/lib/ingest/source-state";
import { errorResponse } from "@/lib/server/errors";
import { guarded } from "@/lib/server/guard-response";

export const dynamic = "force-dynamic";

/** `{"sources":[{"source","documents":[{"name","relPath"}]}]}` */
export const GET = guarded(async () => {
  try {
    return NextResponse.json({ sources: await sourceDocuments() });
  } catch (err) {
    return errorResponse(err);
  }
});
