import { describe, expect, it } from "vitest";
import { guardRequest, type GuardInput } from "./guard";

const req = (over: Partial<GuardInput> = {}): GuardInput => ({
  method: "GET",
  url: new URL("http://127.0.0.1:3000/messages"),
  authorization: null,
  cookieToken: null,
  origin: null,
  host: "127.0.0.1:3000",
  ...over,
});
const open = { token: null, readOnly: false };
const locked = { token: "s3cret-token", readOnly: false };

describe("guardRequest", () => {
  it("lets reads through when no token is set", () => {
    expect(guardRequest(req(), open)).toEqual({ kind: "pass" });
  });

  it("requires the token on every request when one is set", () => {
    expect(guardRequest(req(), locked)).toMatchObject({ kind: "refuse", status: 403, code: "token_required" });
    expect(guardRequest(req({ authorization: "Bearer wrong" }), locked)).toMatchObject({ kind: "refuse" });
    expect(guardRequest(req({ authorization: "Bearer s3cret-token" }), locked)).toEqual({ kind: "pass" });
    expect(guardRequest(req({ cookieToken: "s3cret-token" }), locked)).toEqual({ kind: "pass" });
  });

  it("turns /?token= into a cookie and a clean address", () => {
    const decision = guardRequest(req({ url: new URL("http://127.0.0.1:3000/?token=s3cret-token&x=1") }), locked);
    expect(decision).toEqual({ kind: "login", location: "/?x=1", token: "s3cret-token" });
    expect(guardRequest(req({ url: new URL("http://127.0.0.1:3000/?token=nope") }), locked)).toMatchObject({ kind: "refuse" });
  });

  it("refuses writes without a same-origin Origin", () => {
    const post = { method: "POST", url: new URL("http://127.0.0.1:3000/api/compose") };
    expect(guardRequest(req(post), open)).toMatchObject({ code: "bad_origin" });
    expect(guardRequest(req({ ...post, origin: "http://evil.example" }), open)).toMatchObject({ code: "bad_origin" });
    expect(guardRequest(req({ ...post, origin: "http://127.0.0.1:3000" }), open)).toEqual({ kind: "pass" });
  });

  it("refuses every write in read-only mode", () => {
    const post = { method: "POST", origin: "http://127.0.0.1:3000" };
    expect(guardRequest(req(post), { token: null, readOnly: true })).toMatchObject({ status: 403, code: "read_only" });
    expect(guardRequest(req(), { token: null, readOnly: true })).toEqual({ kind: "pass" });
  });
});
