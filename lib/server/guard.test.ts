import { describe, expect, it } from "vitest";
import { guardRequest, type GuardInput, type GuardSettings } from "./guard";

const req = (over: Partial<GuardInput> = {}): GuardInput => ({
  method: "GET",
  url: new URL("http://127.0.0.1:3000/messages"),
  authorization: null,
  cookieToken: null,
  origin: null,
  host: "127.0.0.1:3000",
  arrival: null,
  ...over,
});
const open: GuardSettings = { token: null, readOnly: false, allowedHosts: [] };
const locked: GuardSettings = { token: "s3cret-token", readOnly: false, allowedHosts: [] };

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
    expect(guardRequest(req(post), { ...open, readOnly: true })).toMatchObject({ status: 403, code: "read_only" });
    expect(guardRequest(req(), { ...open, readOnly: true })).toEqual({ kind: "pass" });
  });

  it("answers only the hosts it serves: IP addresses, loopback names and the names configured (DNS rebinding)", () => {
    const asking = (host: string | null, settings = locked) => guardRequest(req({ host, authorization: "Bearer s3cret-token" }), settings);
    for (const host of ["127.0.0.1:3000", "localhost:3000", "LOCALHOST", "app.localhost:3000", "[::1]:3000", "192.0.2.2:3000", "[fd00::2]", "localhost.:3000"]) {
      expect(asking(host), host).toEqual({ kind: "pass" });
    }
    for (const host of ["evil.example", "evil.example:3000", "127.0.0.1.evil.example", "", "a b", "evil.example/x", "user@127.0.0.1", "127.0.0.1, evil.example"]) {
      expect(asking(host), String(host)).toMatchObject({ kind: "refuse", status: 403, code: "bad_host" });
    }
    // No Host at all (HTTP/1.0): not a browser, so not a rebound page; the other checks still apply.
    expect(asking(null)).toEqual({ kind: "pass" });
    expect(guardRequest(req({ host: null, arrival: { localAddress: "192.0.2.2", forwarded: false } }), open)).toMatchObject({ code: "loopback_only" });
    expect(guardRequest(req({ host: null, method: "POST", origin: "http://127.0.0.1:3000" }), open)).toMatchObject({ code: "bad_origin" });
    const named = { ...locked, allowedHosts: ["mailroom.example.com"] };
    expect(asking("mailroom.example.com", named)).toEqual({ kind: "pass" });
    expect(asking("Mailroom.Example.com:443", named)).toEqual({ kind: "pass" });
    expect(asking("other.example.com", named)).toMatchObject({ code: "bad_host" });
    // Even a write with the right Origin: the rebound page is same-origin with itself.
    const rebound = req({ method: "POST", host: "evil.example:3000", origin: "http://evil.example:3000" });
    expect(guardRequest(rebound, open)).toMatchObject({ code: "bad_host" });
  });

  it("refuses a malformed, empty, null or repeated Origin with a 403, never by throwing", () => {
    const post = (origin: string) => guardRequest(req({ method: "POST", origin }), open);
    for (const origin of ["null", "", " ", "http://", "not a url", "http://127.0.0.1:3000, http://127.0.0.1:3000", "http://127.0.0.1:3000/path", "ftp://127.0.0.1:3000", "http://user@127.0.0.1:3000"]) {
      expect(post(origin), JSON.stringify(origin)).toMatchObject({ kind: "refuse", status: 403, code: "bad_origin" });
    }
    expect(post("http://127.0.0.1:3000")).toEqual({ kind: "pass" });
    expect(guardRequest(req({ method: "POST", host: "LOCALHOST:3000", origin: "http://localhost:3000" }), open)).toEqual({ kind: "pass" });
  });

  it("without a token, answers only what arrived on loopback, for a loopback name, not through a proxy", () => {
    const on = (localAddress: string, forwarded = false) => ({ arrival: { localAddress, forwarded } });
    expect(guardRequest(req(on("127.0.0.1")), open)).toEqual({ kind: "pass" });
    expect(guardRequest(req(on("::1")), open)).toEqual({ kind: "pass" });
    expect(guardRequest(req(on("::ffff:127.0.0.1")), open)).toEqual({ kind: "pass" });
    // `next start -H 0.0.0.0`: a client on the network, whatever Host it sends.
    for (const refused of [
      req(on("192.0.2.2")),
      req({ ...on("::ffff:192.0.2.2"), host: "localhost:3000" }),
      req(on("unknown")),
      req(on("127.0.0.1", true)),
      req({ ...on("127.0.0.1"), host: "192.0.2.2:3000" }),
      req({ host: "mailroom.example.com" }),
    ]) {
      expect(guardRequest(refused, { ...open, allowedHosts: ["mailroom.example.com"] }), JSON.stringify(refused)).toMatchObject({ status: 403, code: "loopback_only" });
    }
    expect(guardRequest(req(on("192.0.2.2")), open)).toMatchObject({ message: expect.stringMatching(/no MAILROOM_TOKEN.*arrived on 192\.0\.2\.2/) });
    // Arrived before the server stamped requests (the first one, while Next.js runs register()):
    // not known to be off loopback, nor known not to be; sent again, it is stamped.
    expect(guardRequest(req({ arrival: { localAddress: null, forwarded: false } }), open)).toMatchObject({ status: 503, code: "starting" });
    expect(guardRequest(req({ arrival: { localAddress: null, forwarded: false }, authorization: "Bearer s3cret-token" }), locked)).toEqual({ kind: "pass" });
    // With the token, anyone who holds it, from anywhere.
    expect(guardRequest(req({ ...on("192.0.2.2", true), authorization: "Bearer s3cret-token" }), locked)).toEqual({ kind: "pass" });
    expect(guardRequest(req(on("192.0.2.2")), locked)).toMatchObject({ code: "token_required" });
  });
});

describe("a script with the token", () => {
  const post = (over: Partial<GuardInput> = {}) => req({ method: "POST", url: new URL("http://127.0.0.1:3000/api/messages/k/discard"), ...over });

  it("may change things without an Origin when it sends the token in Authorization", () => {
    expect(guardRequest(post({ authorization: "Bearer s3cret-token" }), locked)).toEqual({ kind: "pass" });
    expect(guardRequest(post({ authorization: "Bearer s3cret-token" }), { ...locked, readOnly: true })).toMatchObject({ code: "read_only" });
  });

  it("does not make a browser's request pass: a cookie, a Sec-Fetch-Site or an Origin keeps the Origin check", () => {
    expect(guardRequest(post({ cookieToken: "s3cret-token" }), locked)).toMatchObject({ code: "bad_origin" });
    expect(guardRequest(post({ authorization: "Bearer s3cret-token", secFetchSite: "cross-site" }), locked)).toMatchObject({ code: "bad_origin" });
    expect(guardRequest(post({ authorization: "Bearer s3cret-token", origin: "http://evil.example" }), locked)).toMatchObject({ code: "bad_origin" });
    // Without a token set there is nothing a script could prove.
    expect(guardRequest(post(), open)).toMatchObject({ code: "bad_origin" });
  });
});
