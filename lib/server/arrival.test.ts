import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { ARRIVAL_HEADER, arrivalOf, watchArrivals } from "./arrival";
import { guarded } from "./guard-response";

// A real HTTP server in this process, as `next start` runs one: what its handler sees.
const server = http.createServer((req, res) => res.end(JSON.stringify(req.headers[ARRIVAL_HEADER] ?? null)));
const listening = new Promise<number>((resolve) => server.listen(0, "0.0.0.0", () => resolve((server.address() as AddressInfo).port)));
afterAll(() => server.close());

async function stampSeen(host: string, headers: Record<string, string> = {}): Promise<unknown> {
  const res = await fetch(`http://${host}:${await listening}/`, { headers });
  return res.json();
}

const lanAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((a) => a && a.family === "IPv4" && !a.internal)?.address;

const handler = guarded(() => new Response("served"));
const asked = (arrival: string) =>
  handler(new Request("http://127.0.0.1:3000/api/stats", { headers: { host: "127.0.0.1:3000", [ARRIVAL_HEADER]: arrival } }));

describe("arrival stamps", () => {
  it("are not read before this process stamps requests: a client's own header proves nothing", async () => {
    expect(arrivalOf(new Headers({ [ARRIVAL_HEADER]: "127.0.0.1" }))).toBeNull();
    expect(await stampSeen("127.0.0.1")).toBeNull();
  });

  it("say which local address a request arrived on, replacing whatever the client sent", async () => {
    watchArrivals();
    watchArrivals(); // once per process, however often it is called
    expect(await stampSeen("127.0.0.1", { [ARRIVAL_HEADER]: "127.0.0.1 forged" })).toBe("127.0.0.1");
    expect(await stampSeen("127.0.0.1", { "X-Forwarded-For": "198.51.100.7" })).toBe("127.0.0.1 forwarded");
    expect(await stampSeen("127.0.0.1", { Forwarded: "for=198.51.100.7" })).toBe("127.0.0.1 forwarded");
  });

  it.skipIf(!lanAddress)("say so when a request came in on the network", async () => {
    watchArrivals();
    expect(await stampSeen(lanAddress ?? "", { [ARRIVAL_HEADER]: "127.0.0.1" })).toBe(lanAddress);
  });

  it("let the guard refuse what arrived off loopback when no token is set", async () => {
    watchArrivals();
    expect(arrivalOf(new Headers({ [ARRIVAL_HEADER]: "192.0.2.2 forwarded" }))).toEqual({ localAddress: "192.0.2.2", forwarded: true });
    const refused = await asked("192.0.2.2");
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: "loopback_only", message: expect.stringMatching(/arrived on 192\.0\.2\.2/) } });
    expect((await asked("127.0.0.1 forwarded")).status).toBe(403);
    expect(await (await asked("127.0.0.1")).text()).toBe("served");
  });

  it("answer a request that came before stamping began with a 503 to send again, not a refusal", async () => {
    watchArrivals();
    expect(arrivalOf(new Headers())).toEqual({ localAddress: null, forwarded: false });
    const early = await handler(new Request("http://127.0.0.1:3000/api/stats", { headers: { host: "127.0.0.1:3000" } }));
    expect(early.status).toBe(503);
    expect(early.headers.get("retry-after")).toBe("1");
    expect(await early.json()).toMatchObject({ error: { code: "starting" } });
  });
});
