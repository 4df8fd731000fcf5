// Every API route checks the guard itself (API routes sit outside proxy.ts): each handler of every
// route.ts under app/api is called here as an attacker would, and must refuse before it runs.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

type Handler = (request: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"] as const;
const ORIGIN = "http://127.0.0.1:3000";

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? routeFiles(full) : e.name === "route.ts" ? [full] : [];
  });
}

const routes = await Promise.all(
  routeFiles(__dirname).map(async (file) => {
    const mod = (await import(file)) as Partial<Record<(typeof METHODS)[number], Handler>>;
    const url = `${ORIGIN}/api/${path.relative(__dirname, path.dirname(file)).replaceAll(path.sep, "/")}`;
    return METHODS.flatMap((method) => (mod[method] ? [{ method, url, handler: mod[method] }] : []));
  }),
).then((all) => all.flat());
const reads = new Set(["GET", "HEAD", "OPTIONS"]);
const writes = routes.filter((r) => !reads.has(r.method));

const saved = { token: process.env.MAILROOM_TOKEN, readOnly: process.env.MAILROOM_READONLY };
afterEach(() => {
  for (const [name, value] of [["MAILROOM_TOKEN", saved.token], ["MAILROOM_READONLY", saved.readOnly]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const ctx = { params: Promise.resolve({ key: "k", id: "thr_1" }) };
const call = (r: (typeof routes)[number], headers: Record<string, string>) =>
  r.handler(new Request(r.url, { method: r.method, headers: { host: "127.0.0.1:3000", ...headers }, ...(reads.has(r.method) ? {} : { body: "{}" }) }), ctx);
const codeOf = async (res: Response) => ({ status: res.status, code: ((await res.json()) as { error: { code: string } }).error.code });

describe("every API route guards itself", () => {
  it("finds the routes (reads and writes)", () => {
    expect(routes.length).toBeGreaterThanOrEqual(18);
    expect(writes.length).toBeGreaterThanOrEqual(6);
  });

  it("refuses a request without the token when one is set", async () => {
    process.env.MAILROOM_TOKEN = "s3cret-token";
    for (const r of routes) {
      expect(await codeOf(await call(r, { origin: ORIGIN, authorization: "Bearer wrong" })), `${r.method} ${r.url}`).toEqual({ status: 403, code: "token_required" });
      expect(await codeOf(await call(r, { origin: ORIGIN, cookie: "mailroom_token=nope" })), `${r.method} ${r.url}`).toEqual({ status: 403, code: "token_required" });
    }
  });

  it("refuses a write without Origin, or from another site", async () => {
    for (const r of writes) {
      expect(await codeOf(await call(r, {})), `${r.method} ${r.url}`).toEqual({ status: 403, code: "bad_origin" });
      expect(await codeOf(await call(r, { origin: "http://evil.example" })), `${r.method} ${r.url}`).toEqual({ status: 403, code: "bad_origin" });
    }
  });

  it("refuses an Origin that is null, empty, malformed or repeated with a 403, not a 500", async () => {
    for (const origin of ["null", "", "http://", `${ORIGIN}, ${ORIGIN}`]) {
      for (const r of writes) {
        expect(await codeOf(await call(r, { origin })), `${r.method} ${r.url} Origin: ${origin}`).toEqual({ status: 403, code: "bad_origin" });
      }
    }
  });

  it("refuses every request for a host it does not serve (DNS rebinding)", async () => {
    for (const r of routes) {
      expect(await codeOf(await call(r, { host: "evil.example:3000", origin: "http://evil.example:3000" })), `${r.method} ${r.url}`).toEqual({ status: 403, code: "bad_host" });
    }
  });

  it("refuses every write in read-only mode", async () => {
    process.env.MAILROOM_READONLY = "1";
    for (const r of writes) {
      expect(await codeOf(await call(r, { origin: ORIGIN })), `${r.method} ${r.url}`).toEqual({ status: 403, code: "read_only" });
    }
  });
});
