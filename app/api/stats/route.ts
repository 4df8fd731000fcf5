import { NextResponse } from "next/server";
import { getStats } from "@/lib/journal";
import { errorResponse } from "@/lib/server/errors";

export const dynamic = "force-dynamic";

export function GET() {
  try {
    return NextResponse.json(getStats());
  } catch (err) {
    return errorResponse(err);
  }
}
