import { NextResponse } from "next/server";
import { listSources } from "@/lib/journal";
import { errorResponse } from "@/lib/server/errors";
import { guarded } from "@/lib/server/guard-response";

export const dynamic = "force-dynamic";

export const GET = guarded(() => {
  try {
    return NextResponse.json({ sources: listSources() });
  } catch (err) {
    return errorResponse(err);
  }
});
