import { NextResponse, type NextRequest } from "next/server";
import { getConfig } from "@/lib/server/config";
import { guardRequest, TOKEN_COOKIE } from "@/lib/server/guard";

export function proxy(request: NextRequest) {
  const config = getConfig();
  const decision = guardRequest(
    {
      method: request.method,
      url: request.nextUrl,
      authorization: request.headers.get("authorization"),
      cookieToken: request.cookies.get(TOKEN_COOKIE)?.value ?? null,
      origin: request.headers.get("origin"),
      host: request.headers.get("host"),
    },
    config,
  );
  if (decision.kind === "pass") return NextResponse.next();
  if (decision.kind === "login") {
    const response = NextResponse.redirect(new URL(decision.location, request.url));
    response.cookies.set(TOKEN_COOKIE, decision.token, { httpOnly: true, sameSite: "strict", path: "/" });
    return response;
  }
  const body = { error: { code: decision.code, message: decision.message } };
  if (request.nextUrl.pathname.startsWith("/api/")) return NextResponse.json(body, { status: decision.status });
  return new NextResponse(`Mailroom: ${decision.message}\n`, { status: decision.status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

export const config = {
  // Everything but Next's own static assets.
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg).*)"],
};
