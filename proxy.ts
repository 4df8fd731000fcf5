import { NextResponse, type NextRequest } from "next/server";
import { guardResponse } from "@/lib/server/guard-response";

/**
 * Pages (and their server actions) pass the guard here; API routes guard themselves
 * (lib/server/guard-response.ts). An API address holding a "%" comes here too: Next.js decodes a
 * route's params before the route runs and answers a malformed encoding with a 500, so the 400
 * must be given first.
 */
export function proxy(request: NextRequest) {
  return guardResponse(request) ?? NextResponse.next();
}

export const config = {
  matcher: [
    // Everything but the API and Next's own static assets.
    "/((?!api/|_next/static|_next/image|favicon.ico|icon.svg).*)",
    "/api/(.*%.*)",
  ],
};
