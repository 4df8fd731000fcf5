// Starts the production server (`next start`) on HOSTNAME:PORT, 127.0.0.1:3000 by default.
// Refuses to listen beyond loopback without MAILROOM_TOKEN (docs/DESIGN.md "Safety rules").
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import path from "node:path";
import { fileURLToPath } from "node:url";

const projectDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const host = process.env.HOSTNAME || "127.0.0.1";
const port = process.env.PORT || "3000";

export function isLoopback(address) {
  return address === "localhost" || address === "::1" || /^127(\.\d{1,3}){3}$/.test(address);
}

function fail(message) {
  console.error(`mailroom: ${message}`);
  process.exit(2);
}

if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) fail(`PORT must be a port number, got "${port}"`);
if (!isLoopback(host) && !process.env.MAILROOM_TOKEN) {
  fail(`refusing to listen on ${host} without MAILROOM_TOKEN: anyone on the network could read the queues. Set MAILROOM_TOKEN, or use HOSTNAME=127.0.0.1.`);
}
if (!existsSync(path.join(projectDir, ".next", "BUILD_ID"))) fail("no production build yet: run `npm run build` first.");

const next = path.join(projectDir, "node_modules", ".bin", "next");
const child = spawn(next, ["start", "-H", host, "-p", port], { cwd: projectDir, stdio: ["inherit", "pipe", "inherit"], env: process.env });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

// Next says "Ready" before Mailroom has read its settings (instrumentation.ts runs just after):
// hold that line back until the server answers, so a bad setting is said first, and alone when
// it stops the server.
const READY = /\bReady in\b/;
let held = null;
let ready = false;
createInterface({ input: child.stdout }).on("line", (line) => {
  if (!ready && READY.test(line)) {
    held = line;
    void announceWhenServing();
  } else console.log(line);
});

async function announceWhenServing() {
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}/api/health`;
  // A request is served only once instrumentation's register() has run; 30 s covers a cold start.
  for (let i = 0; i < 300 && child.exitCode === null; i++) {
    const res = await fetch(url).catch(() => null);
    if (res) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (child.exitCode !== null) return;
  ready = true;
  console.log(held);
}
