import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

describe("loadConfig", () => {
  it("has the documented defaults", () => {
    const c = loadConfig({ HOME: "/home/op" });
    expect(c).toMatchObject({ roots: [], token: null, readOnly: false, pollMs: 2000, stuckAfterMs: 300_000, stuckAfterSet: false, rescanMs: 10_000 });
    // Set, even to the default, it overrides a workspace's own timeout.
    expect(loadConfig({ HOME: "/home/op", MAILROOM_STUCK_AFTER: "300" }).stuckAfterSet).toBe(true);
    expect(c.dataDir).toBe("/home/op/.local/share/mailroom");
    expect(path.dirname(c.journalFile)).toBe(c.dataDir);
  });

  it("serves the host names HOSTNAME and MAILROOM_ALLOWED_HOSTS give, lowercased, none by default", () => {
    expect(loadConfig({}).allowedHosts).toEqual([]);
    expect(loadConfig({ HOSTNAME: "0.0.0.0" }).allowedHosts).toEqual(["0.0.0.0"]);
    expect(loadConfig({ HOSTNAME: "Box.lan", MAILROOM_ALLOWED_HOSTS: " mailroom.example.com, box.lan ,," }).allowedHosts).toEqual(["box.lan", "mailroom.example.com"]);
    expect(loadConfig({ HOSTNAME: "::" }).allowedHosts).toEqual([]);
  });

  it("reads several roots and gives each set its own journal", () => {
    const a = loadConfig({ MAILROOM_ROOT: "/w/a:/w/b", MAILROOM_DATA: "/d" });
    const b = loadConfig({ MAILROOM_ROOT: "/w/a", MAILROOM_DATA: "/d" });
    expect(a.roots).toEqual(["/w/a", "/w/b"]);
    expect(a.journalFile).not.toBe(b.journalFile);
  });

  it.each([
    [{ MAILROOM_POLL_MS: "fast" }, /MAILROOM_POLL_MS: must be a number/],
    [{ MAILROOM_POLL_MS: "10" }, /MAILROOM_POLL_MS: must be at least 250 ms/],
    [{ MAILROOM_STUCK_AFTER: "0" }, /MAILROOM_STUCK_AFTER: must be at least 1 s/],
    [{ MAILROOM_READONLY: "yes" }, /MAILROOM_READONLY: use "1"/],
    [{ MAILROOM_ALLOWED_HOSTS: "https://mailroom.example.com" }, /MAILROOM_ALLOWED_HOSTS: list host names separated by commas/],
    [{ MAILROOM_ALLOWED_HOSTS: "box.lan:3000" }, /MAILROOM_ALLOWED_HOSTS: list host names/],
    [{ MAILROOM_ROOT: "/w", MAILROOM_DATA: "/w/.mailroom" }, /journal must live outside/],
  ])("rejects %o with a message naming the setting", (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe("scripts/serve.mjs", () => {
  it("refuses to listen beyond loopback without a token", () => {
    const run = spawnSync(process.execPath, ["scripts/serve.mjs"], {
      env: { PATH: process.env.PATH, HOSTNAME: "0.0.0.0", PORT: "3999", NODE_ENV: "production" },
      encoding: "utf8",
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/refusing to listen on 0\.0\.0\.0 without MAILROOM_TOKEN/);
  });

  // Starts the production build, so only where one exists (npm test builds first).
  it.skipIf(!fs.existsSync(".next/BUILD_ID"))("says a bad setting, and never that it is Ready", async () => {
    const data = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-serve-"));
    const env = { PATH: process.env.PATH, HOME: data, PORT: String(4300 + (process.pid % 500)), MAILROOM_DATA: data, MAILROOM_POLL_MS: "soon", NODE_ENV: "production" as const };
    const run = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, ["scripts/serve.mjs"], { env });
      let out = "";
      child.stdout.on("data", (b: Buffer) => (out += b.toString()));
      child.stderr.on("data", (b: Buffer) => (out += b.toString()));
      child.on("exit", (code) => resolve({ code, out }));
    });
    fs.rmSync(data, { recursive: true, force: true });
    expect(run.code).toBe(2);
    expect(run.out).toMatch(/MAILROOM_POLL_MS: must be a number of milliseconds/);
    expect(run.out).not.toMatch(/Ready/);
  }, 60_000);
});
