// `npm run demo`: one fresh workspace per protocol (IGNITE v3, IGNITE v2, shogun, workflow,
// KickLang) under one temp folder, a simulated team playing in each, and Mailroom serving them all
// as one console; `npm run demo -- --protocol <name>` plays one. Ctrl-C (or SIGTERM) stops the
// teams and the server and removes the workspaces and the journal; `--keep` keeps them for a look.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEMO_PROTOCOLS, demoStuckAfterSeconds, isDemoProtocol, prepareDemoTeam, type DemoProtocol, type PreparedTeam } from "../lib/demo/teams";
import type { DemoTeam } from "../lib/demo/timed-team";

const ROOT = path.resolve(__dirname, "..");
const speed = Number(process.env.MAILROOM_DEMO_SPEED) > 0 ? Number(process.env.MAILROOM_DEMO_SPEED) : 1;
const args = process.argv.slice(2);
const keep = args.includes("--keep");

/** `--protocol <name>` or `--protocol=<name>`: the one protocol to play (default: all five). */
function chosenProtocols(): DemoProtocol[] {
  const at = args.findIndex((a) => a === "--protocol" || a.startsWith("--protocol="));
  if (at < 0) return [...DEMO_PROTOCOLS];
  const name = args[at]?.includes("=") ? args[at]?.slice("--protocol=".length) : args[at + 1];
  if (name && isDemoProtocol(name)) return [name];
  console.error(`[demo] --protocol: ${name ? `"${name}" is not one of` : "name one of"} ${DEMO_PROTOCOLS.join(", ")}`);
  process.exit(2);
}

let teams: DemoTeam[] = [];
let child: ChildProcess | null = null;
let stopping = false;
/** Temp folders this run made, removed when it ends unless --keep. */
const made: string[] = [];

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

/** Until the server answers (true), or it exits or the demo stops (false). No time cap: a first start on a busy machine is slow. */
async function waitUntilReady(url: string): Promise<boolean> {
  const headers: Record<string, string> = process.env.MAILROOM_TOKEN
    ? { authorization: `Bearer ${process.env.MAILROOM_TOKEN}` }
    : {};
  while (!stopping && child) {
    try {
      if ((await fetch(new URL("/api/health", url), { headers })).ok) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

function shutdown(signal: NodeJS.Signals): void {
  if (stopping) {
    // A second signal: no more waiting (for a team being prepared, or a server slow to stop).
    console.log(`\n[demo] ${signal} again: stopping now.`);
    child?.kill("SIGKILL");
    cleanUp();
    process.exit(1);
  }
  stopping = true;
  console.log(`\n[demo] ${signal}: stopping the teams and the server…`);
  for (const team of teams) team.stop();
  const running = child;
  if (!running) return; // main() is between steps and ends at the next one
  running.kill("SIGTERM");
  // A server (or build) that does not stop in time is killed; main() then ends.
  setTimeout(() => running.kill("SIGKILL"), 5_000).unref();
}

/** Remove what this run made in the temp folder, or say where it is with --keep. */
function cleanUp(): void {
  for (const team of teams) team.stop();
  if (keep) {
    for (const dir of made) console.log(`[demo] kept ${dir}`);
    return;
  }
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
  if (made.length > 0) console.log("[demo] removed the demo workspaces and their journal (npm run demo -- --keep keeps them)");
}

/** next build without its type check: `npm test` and CI run tsc and eslint themselves (next.config.ts). */
async function buildIfNeeded(): Promise<number> {
  if (fs.existsSync(path.join(ROOT, ".next", "BUILD_ID"))) return 0;
  console.log("[demo] no production build yet: running next build (without type checking; npm test does that)…");
  return run(path.join(ROOT, "node_modules", ".bin", "next"), ["build"], { ...process.env, MAILROOM_QUICK_BUILD: "1" });
}

async function main(): Promise<number> {
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGHUP", () => shutdown("SIGHUP"));
  // `kill <npm's pid>` ends npm and tsx's launcher without passing the signal on: with its parent
  // gone the demo is orphaned, and stops as if told to (checked each second).
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent && !stopping) shutdown("SIGHUP");
  }, 1_000).unref();

  const protocols = chosenProtocols();
  const workspaces = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-demo-"));
  made.push(workspaces);
  // Each workspace gets a few minutes of history (played on a fake clock) before the server starts.
  const prepared: PreparedTeam[] = [];
  for (const protocol of protocols) {
    if (stopping) return 0;
    const team = await prepareDemoTeam(protocol, workspaces);
    prepared.push(team);
    console.log(`[demo] ${protocol} workspace: ${team.workspace}`);
  }

  // Stopped while the histories were played: no build (it took minutes, and a second signal did nothing).
  if (stopping) return 0;
  const built = await buildIfNeeded();
  if (built !== 0 || stopping) return stopping ? 0 : built;

  let data = process.env.MAILROOM_DATA;
  if (!data) {
    data = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-demo-data-"));
    made.push(data);
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    MAILROOM_ROOT: prepared.map((p) => p.workspace).join(":"),
    MAILROOM_DATA: data,
  };
  // Silent messages show stuck before the teams retry them (see demoStuckAfterSeconds).
  const stuckAfter = demoStuckAfterSeconds(speed);
  if (!process.env.MAILROOM_STUCK_AFTER && stuckAfter !== null) env.MAILROOM_STUCK_AFTER = String(stuckAfter);
  const host = process.env.HOSTNAME || "127.0.0.1";
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${process.env.PORT || "3000"}/`;
  console.log(`[demo] journal: ${data}`);
  const exited = run(process.execPath, [path.join(ROOT, "scripts", "serve.mjs")], env);
  console.log(`[demo] starting Mailroom: ${url}${process.env.MAILROOM_TOKEN ? "  (open it once with ?token=<MAILROOM_TOKEN>)" : ""}`);
  // The teams start once the console answers, so their first live loops (and their failures: a
  // dead letter and its escalation, a silent agent, a broken rule) play while you watch.
  void waitUntilReady(url).then((ready) => {
    if (!ready || stopping) return;
    teams = prepared.map((p) => p.live(speed));
    for (const team of teams) team.start();
    const playing = protocols.length === 1 ? `a simulated ${protocols[0]} team` : `${protocols.length} simulated teams (${protocols.join(", ")})`;
    console.log(`[demo] ready: ${url}  (${playing} running at speed ${speed}; Ctrl-C stops)`);
  });
  const code = await exited;
  console.log(`[demo] server exited (${code})`);
  return stopping ? 0 : code;
}

main().then(
  (code) => {
    cleanUp();
    process.exit(code);
  },
  (error: unknown) => {
    console.error("[demo] failed:", error);
    child?.kill("SIGTERM");
    cleanUp();
    process.exit(1);
  },
);
