// `npm run demo`: a fresh IGNITE workspace in a temp folder, a simulated team playing in it, and
// Mailroom serving it. Ctrl-C stops the team and the server. The workspace is kept for a look.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEMO_TIMING, Simulator } from "../lib/demo/simulator";
import { createDemoWorkspace } from "../lib/demo/workspace";

const ROOT = path.resolve(__dirname, "..");
const speed = Number(process.env.MAILROOM_DEMO_SPEED) > 0 ? Number(process.env.MAILROOM_DEMO_SPEED) : 1;

let simulator: Simulator | null = null;
let child: ChildProcess | null = null;
let stopping = false;

/** Run a child with inherited stdio; resolves with its exit code. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    child = spawn(command, args, { cwd: ROOT, env, stdio: "inherit" });
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      child = null;
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

async function waitUntilReady(url: string): Promise<boolean> {
  const headers: Record<string, string> = process.env.MAILROOM_TOKEN
    ? { authorization: `Bearer ${process.env.MAILROOM_TOKEN}` }
    : {};
  for (let i = 0; i < 120 && !stopping && child; i++) {
    try {
      if ((await fetch(new URL("/api/health", url), { headers })).ok) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}

function shutdown(signal: NodeJS.Signals): void {
  if (stopping) return;
  stopping = true;
  console.log(`\n[demo] ${signal}: stopping the simulator and the server…`);
  simulator?.stop();
  const server = child;
  if (!server) process.exit(0);
  server.kill("SIGTERM");
  // A server that does not stop in time is killed; the exit handler in main() then ends us.
  setTimeout(() => server.kill("SIGKILL"), 5_000).unref();
}

async function main(): Promise<number> {
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));

  const { workspace } = createDemoWorkspace();
  console.log(`[demo] IGNITE workspace: ${workspace}`);
  simulator = new Simulator({ workspace, speed });
  simulator.start();
  console.log(`[demo] simulated team running (speed ${speed})`);

  if (!fs.existsSync(path.join(ROOT, ".next", "BUILD_ID"))) {
    console.log("[demo] no production build yet: running next build…");
    const code = await run(path.join(ROOT, "node_modules", ".bin", "next"), ["build"], process.env);
    if (code !== 0 || stopping) {
      simulator.stop();
      return stopping ? 0 : code;
    }
  }

  const data = process.env.MAILROOM_DATA ?? fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-demo-data-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    MAILROOM_ROOT: workspace,
    MAILROOM_DATA: data,
    // The demo's timeout is 20 s, not 300 s: show silent messages as stuck before they are retried.
    MAILROOM_STUCK_AFTER: process.env.MAILROOM_STUCK_AFTER ?? String(Math.max(1, Math.round((DEMO_TIMING.timeoutMs * 0.6) / 1000 / speed))),
  };
  const host = process.env.HOSTNAME || "127.0.0.1";
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${process.env.PORT || "3000"}/`;
  console.log(`[demo] journal: ${data}`);
  const exited = run(process.execPath, [path.join(ROOT, "scripts", "serve.mjs")], env);
  console.log(`[demo] Mailroom: ${url}${process.env.MAILROOM_TOKEN ? "  (open it once with ?token=<MAILROOM_TOKEN>)" : ""}`);
  void waitUntilReady(url).then((ready) => {
    if (ready) console.log(`[demo] ready: ${url}`);
  });
  const code = await exited;
  simulator.stop();
  console.log(`[demo] server exited (${code}); workspace kept at ${workspace}`);
  return stopping ? 0 : code;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error("[demo] failed:", error);
    simulator?.stop();
    child?.kill("SIGTERM");
    process.exit(1);
  },
);
