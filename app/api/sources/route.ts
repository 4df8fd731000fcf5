import { NextResponse } from "next/server";
import { listSources } from "@/lib/journal";
import { errorResponse } from "@/lib/server/errors";

export const dynamic = "force-dynamic";

export function GET() {
  try {
    return NextResponse.json({ sources: listSources() });
  } catch (err) {
    return errorResponse(err);
  }
}
