import { NextResponse } from "next/server";
import { VERSION } from "@/lib/server/version";
import { guarded } from "@/lib/server/guard-response";

export const dynamic = "force-dynamic";

export const GET = guarded(() => {
  return NextResponse.json({ ok: true, version: VERSION });
});
