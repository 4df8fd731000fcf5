import { NextResponse } from "next/server";
import { getFacets } from "@/lib/journal";
import { errorResponse } from "@/lib/server/errors";
import { guarded } from "@/lib/server/guard-response";

export const dynamic = "force-dynamic";

/** Values the search box completes: agents, types, priorities and recent threads. */
export const GET = guarded(() => {
  try {
    return NextResponse.json(getFacets());
  } catch (err) {
    return errorResponse(err);
  }
});
