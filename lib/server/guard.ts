import { timingSafeEqual } from "node:crypto";
import { hostNameOf, isLoopback, isServedHost } from "./hosts";

export const TOKEN_COOKIE = "mailroom_token";

export interface GuardInput {
  method: string;
  url: URL;
  authorization: string | null;
  cookieToken: string | null;
  origin: string | null;
  host: string | null;
  /**
   * How the request reached this process, as the server stamped it from the socket (arrival.ts):
   * the local address it arrived on and whether it carried a proxy's forwarding headers. Null
   * when nothing stamped it (a handler called directly, as in tests).
   */
  arrival: { localAddress: string | null; forwarded: boolean } | null;
  /** `Sec-Fetch-Site`, which every current browser sends and a script need not. */
  secFetchSite?: string | null;
}

export interface GuardSettings {
  token: string | null;
  readOnly: boolean;
  /** Host names served besides IP literals and loopback names (HOSTNAME, MAILROOM_ALLOWED_HOSTS). */
  allowedHosts: readonly string[];
}

export type GuardDecision =
  | { kind: "pass" }
  /** `?token=` was right: set the cookie and drop the token from the address bar. */
  | { kind: "login"; location: string; token: string }
  | { kind: "refuse"; status: 403; code: string; message: string }
  /** The request came before the server could see how requests arrive: it may be sent again at once. */
  | { kind: "refuse"; status: 503; code: "starting"; message: string };

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

const refuse = (code: string, message: string): GuardDecision => ({ kind: "refuse", status: 403, code, message });
const READ_ONLY = refuse("read_only", "Mailroom runs read-only (MAILROOM_READONLY=1): nothing can be changed.");

/** The Origin's host when it is one well-formed origin (not "null", empty, a list or a URL with a path). */
function originHost(origin: string | null): string | null {
  if (!origin || !URL.canParse(origin)) return null;
  const url = new URL(origin);
  if (url.origin !== origin.toLowerCase().replace(/\/$/, "") || !/^https?:$/.test(url.protocol)) return null;
  return url.host;
}

/** Without a token, only what comes from this machine itself: why this request does not, or null. */
function offLoopback(req: GuardInput, hostName: string | null): string | null {
  const local = req.arrival?.localAddress;
  if (typeof local === "string" && !isLoopback(local)) return `this one arrived on ${local}`;
  if (req.arrival?.forwarded) return "this one came through a proxy (it carries Forwarded, X-Forwarded-For or X-Real-IP)";
  if (hostName !== null && !isLoopback(hostName)) return `this one asked for ${hostName}`;
  return null;
}

/**
 * A script (curl, a CI job) changing things with the token: it sends the token itself in
 * `Authorization` (a page cannot make a browser send that to another site without a CORS preflight,
 * which Mailroom never grants) and none of a browser's request headers (Origin, Sec-Fetch-Site).
 * A browser's request is held to the Origin check whatever it carries.
 */
export function isScriptWithToken(req: GuardInput, token: string | null): boolean {
  if (!token || req.origin || req.secFetchSite) return false;
  const bearer = req.authorization?.match(/^Bearer\s+(.+)$/i)?.[1] ?? null;
  return bearer !== null && same(bearer, token);
}

/**
 * Every request passes here (docs/DESIGN.md "Safety rules"): the Host, then the loopback rule when there
 * is no token, the token, then Origin and read-only for writes.
 */
export function guardRequest(req: GuardInput, settings: GuardSettings): GuardDecision {
  // Only a client that is not a browser leaves Host out (HTTP/1.0), and only a browser can be rebound.
  const hostName = req.host === null ? null : hostNameOf(req.host);
  if (req.host !== null && (hostName === null || !isServedHost(hostName, settings.allowedHosts))) {
    return refuse(
      "bad_host",
      `Refused a request for the host ${JSON.stringify(hostName ?? req.host ?? "")}: this Mailroom answers to IP addresses, localhost and the names in HOSTNAME or MAILROOM_ALLOWED_HOSTS.`,
    );
  }
  const { token } = settings;
  if (!token) {
    if (req.arrival?.localAddress === null) {
      return {
        kind: "refuse",
        status: 503,
        code: "starting",
        message: "Mailroom was still starting when this request arrived, so it cannot tell whether it came from this machine; send it again.",
      };
    }
    const why = offLoopback(req, hostName);
    if (why) {
      return refuse(
        "loopback_only",
        `This Mailroom has no MAILROOM_TOKEN, so it answers only requests made on this machine to a loopback address; ${why}. Set MAILROOM_TOKEN to serve it beyond loopback.`,
      );
    }
  } else {
    const fromQuery = req.url.searchParams.get("token");
    if (fromQuery !== null && SAFE_METHODS.has(req.method) && same(fromQuery, token)) {
      const clean = new URL(req.url);
      clean.searchParams.delete("token");
      return { kind: "login", location: clean.pathname + clean.search, token };
    }
    const bearer = req.authorization?.match(/^Bearer\s+(.+)$/i)?.[1] ?? null;
    const given = bearer ?? req.cookieToken;
    if (!given || !same(given, token)) {
      return refuse(
        "token_required",
        "This Mailroom needs its token: send Authorization: Bearer <token>, or open /?token=<token> once in the browser.",
      );
    }
  }
  if (SAFE_METHODS.has(req.method)) return { kind: "pass" };
  if (isScriptWithToken(req, token)) return settings.readOnly ? READ_ONLY : { kind: "pass" };
  const fromHost = originHost(req.origin);
  if (fromHost === null || req.host === null || fromHost !== new URL(`http://${req.host}`).host) {
    return refuse("bad_origin", "Refused a change from another site: the Origin header must match this server.");
  }
  if (settings.readOnly) return READ_ONLY;
  return { kind: "pass" };
}
