import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiClientError, fetchJson, toApiClientError } from "./fetcher";

afterEach(() => vi.unstubAllGlobals());

describe("toApiClientError", () => {
  it("reads the API's error shape", async () => {
    const res = new Response(JSON.stringify({ error: { code: "bad_query", message: 'Bad search: unknown field "frm:"' } }), { status: 400 });
    const err = await toApiClientError(res);
    expect(err).toBeInstanceOf(ApiClientError);
    expect(err).toMatchObject({ status: 400, code: "bad_query", message: 'Bad search: unknown field "frm:"' });
  });

  it("falls back to the status for a body that is not the error shape", async () => {
    const err = await toApiClientError(new Response("<html>oops</html>", { status: 502, statusText: "Bad Gateway" }));
    expect(err).toMatchObject({ status: 502, code: "http_502", message: "The server answered 502 Bad Gateway" });
  });
});

describe("fetchJson", () => {
  it("returns the JSON of a 2xx answer and throws ApiClientError otherwise", async () => {
    const fetchMock = vi
      .fn<typeof fetch>()
      .mockResolvedValueOnce(new Response(JSON.stringify({ ok: true }), { status: 200 }))
      .mockResolvedValueOnce(new Response(JSON.stringify({ error: { code: "not_found", message: "no such message" } }), { status: 404 }));
    vi.stubGlobal("fetch", fetchMock);
    await expect(fetchJson<{ ok: boolean }>("/api/health")).resolves.toEqual({ ok: true });
    await expect(fetchJson("/api/messages/x")).rejects.toMatchObject({ status: 404, code: "not_found" });
  });
});
