// Playwright's web server: a fresh copy of the IGNITE fixture, a fresh journal, and the
// production build started with `next start` (so the test drives what users run).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { copyFixture } from "../lib/testing/fixtures";

const dir = process.env.MAILROOM_E2E_DIR;
const port = process.env.MAILROOM_E2E_PORT;
if (!dir || !port) throw new Error("MAILROOM_E2E_DIR and MAILROOM_E2E_PORT are set by playwright.config.ts");

const workspace = path.join(dir, "workspace");
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(dir, { recursive: true });
copyFixture("ignite", workspace);

const next = path.join(__dirname, "..", "node_modules", ".bin", "next");
const server = spawn(next, ["start", "-H", "127.0.0.1", "-p", port], {
  stdio: "inherit",
  env: { ...process.env, MAILROOM_ROOT: workspace, MAILROOM_DATA: path.join(dir, "data"), MAILROOM_POLL_MS: "1000" },
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
