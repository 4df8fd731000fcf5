// Pages (and server actions, which POST to a page) pass proxy.ts; API routes guard themselves
// (app/api/guarded.test.ts), so the proxy's matcher leaves /api/ out, but for an address with a "%".
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it } from "vitest";
import { config, proxy } from "./proxy";

const BASE = "http://127.0.0.1:3000";
const saved = { token: process.env.MAILROOM_TOKEN, readOnly: process.env.MAILROOM_READONLY };
afterEach(() => {
  for (const [name, value] of [["MAILROOM_TOKEN", saved.token], ["MAILROOM_READONLY", saved.readOnly]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const request = (path: string, init: { method?: string; headers?: Record<string, string> } = {}) =>
  new NextRequest(`${BASE}${path}`, { method: init.method ?? "GET", headers: { host: "127.0.0.1:3000", ...init.headers }, ...(init.method === "POST" ? { body: "[]" } : {}) });
const passes = (res: Response) => res.headers.get("x-middleware-next") === "1";

describe("proxy guards every page", () => {
  it("runs for pages, not for the API or Next's static assets", () => {
    const matches = (path: string) => config.matcher.some((m) => new RegExp(`^${m}$`).test(path));
    expect(["/", "/messages", "/messages/abc", "/threads/thr_1", "/compose", "/apis"].filter(matches)).toHaveLength(6);
    expect(["/api/messages", "/api/sources", "/_next/static/chunk.js", "/favicon.ico"].filter(matches)).toEqual([]);
  });

  it("lets pages through when no token is set", () => {
    expect(passes(proxy(request("/messages")))).toBe(true);
  });

  it("refuses a page without the token when one is set, in plain text", async () => {
    process.env.MAILROOM_TOKEN = "s3cret-token";
    const res = proxy(request("/messages"));
    expect(res.status).toBe(403);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await res.text()).toMatch(/needs its token/);
    expect(passes(proxy(request("/messages", { headers: { cookie: "mailroom_token=s3cret-token" } })))).toBe(true);
  });

  it("turns a right ?token= into a cookie and a clean address", () => {
    process.env.MAILROOM_TOKEN = "s3cret-token";
    const res = proxy(request("/messages?token=s3cret-token&q=from%3Aleader"));
    expect(res.status).toBe(307);
    expect(res.headers.get("location")).toBe(`${BASE}/messages?q=from%3Aleader`);
    expect(res.headers.get("set-cookie")).toMatch(/^mailroom_token=s3cret-token;.*HttpOnly/i);
  });

  it("refuses a server action (a POST to a page) without Origin, or in read-only mode", () => {
    expect(proxy(request("/compose", { method: "POST" })).status).toBe(403);
    expect(passes(proxy(request("/compose", { method: "POST", headers: { origin: BASE } })))).toBe(true);
    process.env.MAILROOM_READONLY = "1";
    expect(proxy(request("/compose", { method: "POST", headers: { origin: BASE } })).status).toBe(403);
  });

  it("answers a malformed percent-encoding with a 400, on an API address too (Next.js would answer 500)", async () => {
    const matches = (path: string) => config.matcher.some((m) => new RegExp(`^${m}$`).test(path));
    expect(matches("/api/messages/%E0%A4%A")).toBe(true);
    const api = proxy(request("/api/messages/%E0%A4%A"));
    expect(api.status).toBe(400);
    expect(await api.json()).toMatchObject({ error: { code: "bad_path" } });
    expect(proxy(request("/messages/%E0%A4%A")).status).toBe(400);
    expect(proxy(request("/threads/%ZZ")).status).toBe(400);
    expect(passes(proxy(request("/api/threads/a%20b")))).toBe(true);
  });

  it("refuses a page asked for under another host name (DNS rebinding)", () => {
    expect(proxy(request("/dead-letters", { headers: { host: "evil.example:3000" } })).status).toBe(403);
    expect(proxy(request("/compose", { method: "POST", headers: { host: "evil.example:3000", origin: "http://evil.example:3000" } })).status).toBe(403);
  });
});
