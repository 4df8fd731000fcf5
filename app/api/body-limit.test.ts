// Every route that reads a body counts it while it streams: a chunked body with no length stops
// being read just past the limit (reading it whole first let a 300 MB body take 1 GB of memory).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openHarness, type Harness } from "@/lib/operations/test-harness";
import { POST as bulk } from "./bulk/route";
import { POST as compose } from "./compose/route";
import { POST as discard } from "./messages/[key]/discard/route";
import { POST as requeue } from "./messages/[key]/requeue/route";
import { POST as restore } from "./messages/[key]/restore/route";
import { POST as retry } from "./messages/[key]/retry/route";

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(() => h.close());

const ORIGIN = "http://127.0.0.1:3000";
const CHUNK = 64 * 1024;
const OFFERED = 300 * 1024 * 1024;

/** A 300 MB JSON-looking body, chunked (no Content-Length), that counts what was pulled from it. */
function hugeBody() {
  let pulled = 0;
  const chunk = new TextEncoder().encode(`{"body":"${"a".repeat(CHUNK - 9)}`);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= OFFERED) return controller.close();
      pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  const request = new Request(`${ORIGIN}/api/x`, {
    method: "POST",
    headers: { origin: ORIGIN, host: "127.0.0.1:3000", "content-type": "application/json" },
    body: stream,
    duplex: "half",
  } as RequestInit);
  return { request, pulled: () => pulled };
}

const params = { params: Promise.resolve({ key: "k0000000" }) };
type Handler = (request: Request, ctx: typeof params) => Promise<Response>;
const routes = { bulk, compose, discard, requeue, restore, retry } as Record<string, Handler>;

describe("a chunked body over the limit", () => {
  it.each(Object.entries(routes))("POST %s: a 413, having read at most the limit and a few chunks", async (_name, handler) => {
    const { request, pulled } = hugeBody();
    const before = h.tree();
    const res = await handler(request, params);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("too_large");
    // The largest limit (an edited body, JSON-escaped) is 2 MiB + 64 KiB.
    expect(pulled()).toBeLessThan(3 * 1024 * 1024);
    expect(h.tree()).toEqual(before);
  });
});
