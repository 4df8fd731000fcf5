import { timingSafeEqual } from "node:crypto";

export const TOKEN_COOKIE = "mailroom_token";

export interface GuardInput {
  method: string;
  url: URL;
  authorization: string | null;
  cookieToken: string | null;
  origin: string | null;
  host: string | null;
}

export interface GuardSettings {
  token: string | null;
  readOnly: boolean;
}

export type GuardDecision =
  | { kind: "pass" }
  /** `?token=` was right: set the cookie and drop the token from the address bar. */
  | { kind: "login"; location: string; token: string }
  | { kind: "refuse"; status: 403; code: string; message: string };

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Every request passes here (docs/DESIGN.md "Safety rules"): token, then Origin and read-only for writes. */
export function guardRequest(req: GuardInput, settings: GuardSettings): GuardDecision {
  const { token } = settings;
  if (token) {
    const fromQuery = req.url.searchParams.get("token");
    if (fromQuery !== null && SAFE_METHODS.has(req.method) && same(fromQuery, token)) {
      const clean = new URL(req.url);
      clean.searchParams.delete("token");
      return { kind: "login", location: clean.pathname + clean.search, token };
    }
    const bearer = req.authorization?.match(/^Bearer\s+(.+)$/i)?.[1] ?? null;
    const given = bearer ?? req.cookieToken;
    if (!given || !same(given, token)) {
      return {
        kind: "refuse",
        status: 403,
        code: "token_required",
        message: "This Mailroom needs its token: send Authorization: Bearer <token>, or open /?token=<token> once in the browser.",
      };
    }
  }
  if (SAFE_METHODS.has(req.method)) return { kind: "pass" };
  if (!req.origin || !req.host || new URL(req.origin).host !== req.host) {
    return { kind: "refuse", status: 403, code: "bad_origin", message: "Refused a change from another site: the Origin header must match this server." };
  }
  if (settings.readOnly) {
    return { kind: "refuse", status: 403, code: "read_only", message: "Mailroom runs read-only (MAILROOM_READONLY=1): nothing can be changed." };
  }
  return { kind: "pass" };
}
