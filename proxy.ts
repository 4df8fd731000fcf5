import { NextResponse, type NextRequest } from "next/server";
import { guardResponse } from "@/lib/server/guard-response";

/** Pages (and their server actions) pass the guard here; API routes guard themselves (lib/server/guard-response.ts). */
export function proxy(request: NextRequest) {
  return guardResponse(request) ?? NextResponse.next();
}

export const config = {
  // Everything but the API and Next's own static assets.
  matcher: ["/((?!api/|_next/static|_next/image|favicon.ico|icon.svg).*)"],
};
