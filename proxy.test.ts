// Every POST passes proxy.ts first: Origin, token and read-only are enforced there, before any route.
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it } from "vitest";
import { proxy } from "./proxy";

const BASE = "http://127.0.0.1:3000";
const saved = { token: process.env.MAILROOM_TOKEN, readOnly: process.env.MAILROOM_READONLY };
afterEach(() => {
  for (const [name, value] of [["MAILROOM_TOKEN", saved.token], ["MAILROOM_READONLY", saved.readOnly]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

function postTo(path: string, headers: Record<string, string> = {}) {
  return new NextRequest(`${BASE}${path}`, { method: "POST", headers: { host: "127.0.0.1:3000", "content-type": "application/json", ...headers }, body: "{}" });
}

async function refusal(res: Response): Promise<{ status: number; code: string }> {
  const body = (await res.json()) as { error: { code: string } };
  return { status: res.status, code: body.error.code };
}

describe("proxy guards every POST", () => {
  it("lets a same-origin POST through", () => {
    const res = proxy(postTo("/api/messages/k/requeue", { origin: BASE }));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-middleware-next")).toBe("1");
  });

  it("refuses a POST without Origin (403)", async () => {
    expect(await refusal(proxy(postTo("/api/messages/k/requeue")))).toEqual({ status: 403, code: "bad_origin" });
  });

  it("refuses a cross-origin POST (403)", async () => {
    expect(await refusal(proxy(postTo("/api/bulk", { origin: "http://evil.example" })))).toEqual({ status: 403, code: "bad_origin" });
  });

  it("refuses every POST in read-only mode (403)", async () => {
    process.env.MAILROOM_READONLY = "1";
    expect(await refusal(proxy(postTo("/api/messages/k/discard", { origin: BASE })))).toEqual({ status: 403, code: "read_only" });
  });

  it("refuses a POST without the token when one is set (403), and accepts it with the token", async () => {
    process.env.MAILROOM_TOKEN = "s3cret-token";
    expect(await refusal(proxy(postTo("/api/messages/k/retry", { origin: BASE })))).toEqual({ status: 403, code: "token_required" });
    const res = proxy(postTo("/api/messages/k/retry", { origin: BASE, authorization: "Bearer s3cret-token" }));
    expect(res.headers.get("x-middleware-next")).toBe("1");
  });
});
