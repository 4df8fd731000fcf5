import { NextResponse } from "next/server";
import { listDeadLetters } from "@/lib/journal";
import { errorResponse } from "@/lib/server/errors";

export const dynamic = "force-dynamic";

export function GET() {
  try {
    return NextResponse.json(listDeadLetters());
  } catch (err) {
    return errorResponse(err);
  }
}
