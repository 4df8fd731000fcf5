import { NextResponse } from "next/server";
import { VERSION } from "@/lib/server/version";

export const dynamic = "force-dynamic";

export function GET() {
  return NextResponse.json({ ok: true, version: VERSION });
}
