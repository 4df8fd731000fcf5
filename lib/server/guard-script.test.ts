import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { guardRequest, type GuardInput } from "./guard";
import { guardResponse } from "./guard-response";

const post = (over: Partial<GuardInput> = {}): GuardInput => ({
  method: "POST",
  url: new URL("http://127.0.0.1:3000/api/messages/k/discard"),
  authorization: null,
  cookieToken: null,
  origin: null,
  host: "127.0.0.1:3000",
  arrival: null,
  ...over,
});
const locked = { token: "s3cret-token", readOnly: false, allowedHosts: [] };

describe("a script with the token", () => {
  it("may change things without an Origin when it sends the token in Authorization", () => {
    expect(guardRequest(post({ authorization: "Bearer s3cret-token" }), locked)).toEqual({ kind: "pass" });
    expect(guardRequest(post({ authorization: "Bearer s3cret-token" }), { ...locked, readOnly: true })).toMatchObject({ code: "read_only" });
  });

  it("does not make a browser's request pass: a cookie, a Sec-Fetch-Site or an Origin keeps the Origin check", () => {
    expect(guardRequest(post({ cookieToken: "s3cret-token" }), locked)).toMatchObject({ code: "bad_origin" });
    expect(guardRequest(post({ authorization: "Bearer s3cret-token", secFetchSite: "cross-site" }), locked)).toMatchObject({ code: "bad_origin" });
    expect(guardRequest(post({ authorization: "Bearer s3cret-token", origin: "http://evil.example" }), locked)).toMatchObject({ code: "bad_origin" });
    // Without a token set there is nothing a script could prove.
    expect(guardRequest(post(), { token: null, readOnly: false, allowedHosts: [] })).toMatchObject({ code: "bad_origin" });
  });

  it("reads Sec-Fetch-Site from the request", () => {
    process.env.MAILROOM_TOKEN = "s3cret-token";
    try {
      const headers = { host: "127.0.0.1:3000", authorization: "Bearer s3cret-token" };
      const url = "http://127.0.0.1:3000/api/messages/k/discard";
      expect(guardResponse(new NextRequest(url, { method: "POST", headers }))).toBeNull();
      expect(guardResponse(new NextRequest(url, { method: "POST", headers: { ...headers, "sec-fetch-site": "same-site" } }))?.status).toBe(403);
    } finally {
      delete process.env.MAILROOM_TOKEN;
    }
  });
});
