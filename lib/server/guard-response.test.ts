import { describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { cookieValue, guardResponse, malformedPath } from "./guard-response";

describe("cookieValue", () => {
  it("finds a cookie among others, URI-decoded", () => {
    expect(cookieValue("a=1; mailroom_token=s3cret%2Btoken; b=2", "mailroom_token")).toBe("s3cret+token");
    expect(cookieValue("mailroom_token=abc", "mailroom_token")).toBe("abc");
  });

  it("is null when the header or the cookie is missing, or the value is not valid URI encoding", () => {
    expect(cookieValue(null, "mailroom_token")).toBeNull();
    expect(cookieValue("x_mailroom_token=abc; other", "mailroom_token")).toBeNull();
    expect(cookieValue("mailroom_token=%E0%A4%A", "mailroom_token")).toBeNull();
  });
});

describe("guardResponse", () => {
  it("sends a right ?token= back to the host the browser asked for, with the cookie", () => {
    process.env.MAILROOM_TOKEN = "s3cret-token";
    try {
      // NextRequest's own URL would say localhost here: the cookie would not come back.
      const res = guardResponse(new NextRequest("http://127.0.0.1:3000/api/stats?token=s3cret-token", { headers: { host: "127.0.0.1:3000" } }));
      expect(res?.status).toBe(307);
      expect(res?.headers.get("location")).toBe("http://127.0.0.1:3000/api/stats");
      expect(res?.headers.get("set-cookie")).toMatch(/^mailroom_token=s3cret-token;/);
      // A Host that is not a host at all: a 403 that says so, not a 500.
      const odd = guardResponse(new NextRequest("http://127.0.0.1:3000/api/stats?token=s3cret-token", { headers: { host: "a b" } }));
      expect(odd?.status).toBe(403);
    } finally {
      delete process.env.MAILROOM_TOKEN;
    }
  });
});

describe("malformedPath", () => {
  it("finds a % that does not start a percent-encoded UTF-8 character", () => {
    for (const bad of ["/api/messages/%E0%A4%A", "/messages/%ZZ", "/threads/%", "/threads/a%2", "/x/%C0%80"]) expect(malformedPath(bad), bad).toBe(true);
    for (const good of ["/messages", "/threads/a%20b", "/threads/%E2%80%A8", "/api/threads/%25"]) expect(malformedPath(good), good).toBe(false);
  });

  it("is a 400 in the API's error shape (JSON under /api/, text for a page), not a 500", async () => {
    const api = guardResponse(new NextRequest("http://127.0.0.1:3000/api/messages/%E0%A4%A", { headers: { host: "127.0.0.1:3000" } }));
    expect(api?.status).toBe(400);
    expect(await api?.json()).toMatchObject({ error: { code: "bad_path" } });
    const page = guardResponse(new NextRequest("http://127.0.0.1:3000/messages/%ZZ", { headers: { host: "127.0.0.1:3000" } }));
    expect(page?.status).toBe(400);
    expect(await page?.text()).toMatch(/percent-encoded/);
  });
});

describe("guardResponse and scripts", () => {
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
