import { spawnSync } from "node:child_process";
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
});
