// A browser cannot be turned against Mailroom: another site cannot frame its pages, a DNS name
// rebound to 127.0.0.1 is refused, and a server started beyond loopback without a token serves
// nothing to the network.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { copyFixture } from "../lib/testing/fixtures";
import { startOwnServer } from "./own-server";

const base = `http://127.0.0.1:${process.env.MAILROOM_E2E_PORT}`;

/** A raw HTTP request, so the Host header is exactly what a rebound name would send. */
function send(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? "GET", headers: opts.headers }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

test("a page framed by another site is blocked by its headers", async ({ page, request }) => {
  const res = await request.get("/dead-letters");
  expect(res.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(res.headers()["x-frame-options"]).toBe("DENY");
  expect(res.headers()["x-content-type-options"]).toBe("nosniff");
  expect(res.headers()["referrer-policy"]).toBe("no-referrer");

  // The attacker's page, on an origin of its own (on this machine: Chromium keeps a public
  // site from framing a local address at all), frames the dead-letter list, whose buttons discard.
  const attacker = http.createServer((_req, res) => {
    res.setHeader("Content-Type", "text/html");
    res.end(`<!doctype html><title>win a prize</title><iframe name="victim" src="${base}/dead-letters" width="800" height="600"></iframe>`);
  });
  await new Promise<void>((listening) => attacker.listen(0, "127.0.0.1", listening));
  try {
    const refused = page.waitForEvent("console", (m) => m.text().includes("frame-ancestors 'none'"));
    await page.goto(`http://localhost:${(attacker.address() as AddressInfo).port}/`);
    await refused;
    // Chromium swaps a refused frame for its error page: the list never renders inside.
    await expect.poll(() => page.frame({ name: "victim" })?.url()).toMatch(/^chrome-error:/);
  } finally {
    attacker.close();
  }
  await expect(page.frameLocator("iframe").getByRole("heading", { name: "Dead letters" })).toHaveCount(0);
});

test("a request for another host name (a DNS name rebound to 127.0.0.1) is a 403", async () => {
  const port = new URL(base).port;
  const list = await send(`${base}/api/dead-letters`, { headers: { Host: `evil.example:${port}` } });
  expect(list.status).toBe(403);
  expect(JSON.parse(list.body)).toMatchObject({ error: { code: "bad_host" } });
  expect((await send(`${base}/dead-letters`, { headers: { Host: `evil.example:${port}` } })).status).toBe(403);
  // The rebound page's own Origin matches its Host: still refused, nothing discarded.
  const discard = await send(`${base}/api/bulk`, {
    method: "POST",
    headers: { Host: `evil.example:${port}`, Origin: `http://evil.example:${port}`, "Content-Type": "application/json" },
    body: JSON.stringify({ action: "discard", keys: ["k0000000"], dryRun: true }),
  });
  expect(discard.status).toBe(403);
  // The same requests under the server's own address pass.
  expect((await send(`${base}/api/dead-letters`)).status).toBe(200);
});

test("an Origin of null, empty or repeated is a 403, not a 500", async () => {
  for (const origin of ["null", "", `${base}, ${base}`]) {
    const res = await send(`${base}/api/bulk`, { method: "POST", headers: { Origin: origin, "Content-Type": "application/json" }, body: "{}" });
    expect(res.status, JSON.stringify(origin)).toBe(403);
  }
});

test("a malformed percent-encoding in the address is a 400, not a 500", async () => {
  expect((await send(`${base}/api/messages/%E0%A4%A`)).status).toBe(400);
  expect((await send(`${base}/messages/%E0%A4%A`)).status).toBe(400);
});

const lan = Object.values(os.networkInterfaces())
  .flat()
  .find((a) => a && a.family === "IPv4" && !a.internal)?.address;

test("started with -H 0.0.0.0 and no token, it answers loopback only", async () => {
  test.skip(!lan, "this machine has no network address besides loopback");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-e2e-anyaddr-"));
  const server = await startOwnServer({ root: copyFixture("ignite", path.join(dir, "workspace")), data: path.join(dir, "data"), listen: "0.0.0.0" });
  try {
    const port = new URL(server.base).port;
    expect((await send(`${server.base}/api/health`)).status).toBe(200);
    // From the network, even naming localhost in Host: refused, and the log says so.
    for (const host of [`${lan}:${port}`, `localhost:${port}`]) {
      const res = await send(`http://${lan}:${port}/api/dead-letters`, { headers: { Host: host } });
      expect(res.status, host).toBe(403);
      expect(JSON.parse(res.body)).toMatchObject({ error: { code: "loopback_only" } });
    }
    expect((await send(`http://${lan}:${port}/dead-letters`)).status).toBe(403);
    await expect.poll(() => server.output()).toMatch(/REFUSED a request from beyond loopback/);
  } finally {
    server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
