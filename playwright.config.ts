import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { freePort } from "./e2e/own-server";

// Workers inherit the runner's environment, so every process agrees on the workspace it tests.
process.env.MAILROOM_E2E_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-e2e-"));
// A port the OS finds free (a port from the runner's pid could be another run's on a shared host).
process.env.MAILROOM_E2E_PORT ??= String(freePort());
const baseURL = `http://127.0.0.1:${process.env.MAILROOM_E2E_PORT}`;

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  // A test that passes only on a second try has a bug to fix: no retries.
  retries: 0,
  reporter: [["list"]],
  // Caps for a loaded 2-core machine (every wait is on a condition; these only end a hung one).
  timeout: 90_000,
  expect: { timeout: 30_000 },
  use: {
    baseURL,
    browserName: "chromium",
    trace: "retain-on-failure",
    launchOptions: {
      // Debian's Chromium: Playwright cannot download its own browser here.
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  webServer: {
    command: "node_modules/.bin/tsx e2e/serve-fixture.ts",
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
  },
});
