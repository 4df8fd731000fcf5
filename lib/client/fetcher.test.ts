import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiClientError, conditionalFetcher, fetchJson, toApiClientError } from "./fetcher";

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

describe("conditionalFetcher", () => {
  it("sends back the last ETag, and hands back the very same object on a 304", async () => {
    const initial = { n: 1 };
    const fetchMock = vi
      .fn<typeof fetch>()
      .mockResolvedValueOnce(new Response(JSON.stringify({ n: 2 }), { status: 200, headers: { etag: '"v2"' } }))
      .mockResolvedValueOnce(new Response(null, { status: 304 }))
      .mockResolvedValueOnce(new Response(JSON.stringify({ error: { code: "internal", message: "boom" } }), { status: 500 }));
    vi.stubGlobal("fetch", fetchMock);
    const fetcher = conditionalFetcher(initial);
    const first = await fetcher("/api/stats");
    expect(first).toEqual({ n: 2 });
    expect(new Headers(fetchMock.mock.calls[0]?.[1]?.headers).has("if-none-match")).toBe(false);
    expect(await fetcher("/api/stats")).toBe(first);
    expect(new Headers(fetchMock.mock.calls[1]?.[1]?.headers).get("if-none-match")).toBe('"v2"');
    await expect(fetcher("/api/stats")).rejects.toMatchObject({ status: 500, code: "internal" });
  });

  it("starts from the initial data's ETag when the client can work it out", async () => {
    const fetchMock = vi.fn<typeof fetch>().mockResolvedValueOnce(new Response(null, { status: 304 }));
    vi.stubGlobal("fetch", fetchMock);
    const initial = { n: 1 };
    expect(await conditionalFetcher(initial, (d) => `"n${d.n}"`)("/api/x")).toBe(initial);
    expect(new Headers(fetchMock.mock.calls[0]?.[1]?.headers).get("if-none-match")).toBe('"n1"');
  });

  it("sends an ETag back only to the address that gave it", async () => {
    const fetchMock = vi
      .fn<typeof fetch>()
      .mockResolvedValueOnce(new Response(JSON.stringify({ n: 2 }), { status: 200, headers: { etag: '"v2"' } }))
      .mockResolvedValueOnce(new Response(JSON.stringify({ n: 3 }), { status: 200, headers: { etag: '"v2"' } }))
      .mockResolvedValueOnce(new Response(null, { status: 304 }));
    vi.stubGlobal("fetch", fetchMock);
    const fetcher = conditionalFetcher({ n: 1 }, () => '"v1"');
    await fetcher("/api/threads?q=a");
    // Another search, at the same version: asked in full, never answered by the last one's data.
    expect(await fetcher("/api/threads?q=b")).toEqual({ n: 3 });
    expect(new Headers(fetchMock.mock.calls[0]?.[1]?.headers).get("if-none-match")).toBe('"v1"');
    expect(new Headers(fetchMock.mock.calls[1]?.[1]?.headers).has("if-none-match")).toBe(false);
    expect(await fetcher("/api/threads?q=b")).toEqual({ n: 3 });
    expect(new Headers(fetchMock.mock.calls[2]?.[1]?.headers).get("if-none-match")).toBe('"v2"');
  });

  it("answers a 304 with the data of the address it asked about, even when another answer landed meanwhile", async () => {
    let answerA: (r: Response) => void = () => undefined;
    const fetchMock = vi
      .fn<typeof fetch>()
      .mockResolvedValueOnce(new Response(JSON.stringify({ n: 2 }), { status: 200, headers: { etag: '"a2"' } }))
      .mockImplementationOnce(() => new Promise<Response>((resolve) => (answerA = resolve)))
      .mockResolvedValueOnce(new Response(JSON.stringify({ n: 9 }), { status: 200, headers: { etag: '"b9"' } }));
    vi.stubGlobal("fetch", fetchMock);
    const fetcher = conditionalFetcher({ n: 1 });
    const a = await fetcher("/api/threads?q=a");
    const pollA = fetcher("/api/threads?q=a"); // out, with a's ETag
    expect(await fetcher("/api/threads?q=b")).toEqual({ n: 9 }); // b's answer lands first
    answerA(new Response(null, { status: 304 }));
    expect(await pollA).toBe(a);
  });

  it("refuses a 304 to a request that named no version", async () => {
    vi.stubGlobal("fetch", vi.fn<typeof fetch>().mockResolvedValueOnce(new Response(null, { status: 304 })));
    await expect(conditionalFetcher({ n: 1 })("/api/stats")).rejects.toMatchObject({ status: 304 });
  });
});
