import "server-only";
import { NextResponse } from "next/server";
import { arrivalOf } from "./arrival";
import { getConfig } from "./config";
import { guardRequest, TOKEN_COOKIE, type GuardDecision } from "./guard";

/** A cookie's value from a Cookie header (values are URI-encoded when set, as NextResponse does). */
export function cookieValue(header: string | null, name: string): string | null {
  for (const pair of header?.split(";") ?? []) {
    const at = pair.indexOf("=");
    if (at < 0 || pair.slice(0, at).trim() !== name) continue;
    try {
      return decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      return null;
    }
  }
  return null;
}

const registry = globalThis as typeof globalThis & { __mailroomWarnedOffLoopback?: boolean };

/** The first request refused for want of a token says so in the server log: the server is reachable beyond loopback. */
function warnOnce(decision: Extract<GuardDecision, { kind: "refuse" }>): void {
  if (decision.code !== "loopback_only" || registry.__mailroomWarnedOffLoopback) return;
  registry.__mailroomWarnedOffLoopback = true;
  console.error(`[mailroom] REFUSED a request from beyond loopback: ${decision.message} (logged once)`);
}

/**
 * The answer for a request the guard stops (docs/DESIGN.md "Safety rules"), or null when it may go on: a
 * refusal (JSON in the API's error shape under /api/, plain text for a page), or the redirect
 * that turns a right `?token=` into a cookie.
 */
export function guardResponse(request: Request): Response | null {
  const url = new URL(request.url);
  const decision = guardRequest(
    {
      method: request.method,
      url,
      authorization: request.headers.get("authorization"),
      cookieToken: cookieValue(request.headers.get("cookie"), TOKEN_COOKIE),
      origin: request.headers.get("origin"),
      host: request.headers.get("host"),
      arrival: arrivalOf(request.headers),
      secFetchSite: request.headers.get("sec-fetch-site"),
    },
    getConfig(),
  );
  if (decision.kind === "pass") {
    return malformedPath(url.pathname)
      ? refusal(url, 400, "bad_path", `The address ${JSON.stringify(url.pathname.slice(0, 200))} holds a % that does not start a valid percent-encoded UTF-8 character.`)
      : null;
  }
  if (decision.kind === "refuse") warnOnce(decision);
  if (decision.kind === "login") {
    // To the host the browser asked for, where the cookie belongs: NextRequest's URL says
    // localhost for 127.0.0.1 (the proxy makes a same-origin Location relative; a route does not).
    const asked = `${url.protocol}//${request.headers.get("host") ?? url.host}`;
    const response = NextResponse.redirect(new URL(decision.location, URL.canParse(asked) ? asked : url.origin));
    response.cookies.set(TOKEN_COOKIE, decision.token, { httpOnly: true, sameSite: "strict", path: "/" });
    return response;
  }
  return refusal(url, decision.status, decision.code, decision.message);
}

/**
 * JSON in the API's error shape under /api/, plain text for a page. A 503 (still starting) says
 * when to come again, and a browser showing the page reloads it by itself a second later.
 */
function refusal(url: URL, status: 400 | 403 | 503, code: string, message: string): Response {
  const again: Record<string, string> = status === 503 ? { "Retry-After": "1" } : {};
  if (url.pathname.startsWith("/api/")) return NextResponse.json({ error: { code, message } }, { status, headers: again });
  const refresh: Record<string, string> = status === 503 ? { Refresh: "1" } : {};
  return new NextResponse(`Mailroom: ${message}\n`, { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...again, ...refresh } });
}

/** Whether a path segment cannot be decoded: Next.js answers that with a 500 when it reads the route's params. */
export function malformedPath(pathname: string): boolean {
  if (!pathname.includes("%")) return false;
  try {
    for (const segment of pathname.split("/")) decodeURIComponent(segment);
    return false;
  } catch {
    return true;
  }
}

/**
 * An API route handler that checks the guard itself before it runs. API routes sit outside
 * proxy.ts: a proxy round cost every poll ~0.5 ms at the median and more at the p95 (measured on
 * the production build), and a route that guards itself does not depend on the proxy having run.
 */
export function guarded<R extends Request, Args extends unknown[]>(
  handler: (request: R, ...args: Args) => Response | Promise<Response>,
): (request: R, ...args: Args) => Promise<Response> {
  return async (request, ...args) => guardResponse(request) ?? handler(request, ...args);
}
