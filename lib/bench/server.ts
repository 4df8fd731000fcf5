// The production server as every bench mode runs it: `next start` on a generated workspace with its
// own journal, waited on by polling its API (a server that exits meanwhile ends the wait at once).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { closeConnections, timedJson } from "./measure";
import { watchNewestPage } from "./newest-page";

export const projectDir = path.resolve(__dirname, "..", "..");
export const PORT = Number(process.env.BENCH_PORT ?? 3950);
export const base = `http://127.0.0.1:${PORT}`;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A line as each figure is in, so a long run that fails late still shows what it measured. */
export const progress = (line: string) => console.log(`  … ${line}`);

/** Poll `probe` until it gives a value; a server that has exited meanwhile (`server.check()`) ends the wait at once. */
export async function waitFor<T>(probe: () => Promise<T | null>, limitMs: number, what: string, server: { check(): void }): Promise<T> {
  const start = performance.now();
  for (;;) {
    server.check();
    const value = await probe().catch(() => null);
    if (value !== null) return value;
    if (performance.now() - start > limitMs) throw new Error(`${what} did not happen within ${limitMs / 1000} s`);
    await sleep(50);
  }
}

/** The production server on `ws` (roots joined with ":"), its journal in `data`, and its own account of its first scan. */
export function startServer(ws: string, data: string) {
  // BENCH_SERVER_CPU_PROF=<dir>: the server writes a .cpuprofile there as it stops (node's --cpu-prof,
  // which NODE_OPTIONS may not carry); its samples' times show which phase (ingest, appends) each is of.
  const prof = process.env.BENCH_SERVER_CPU_PROF;
  const next = path.join(projectDir, "node_modules/next/dist/bin/next");
  const child = spawn(process.execPath, [...(prof ? ["--cpu-prof", `--cpu-prof-dir=${prof}`] : []), next, "start", "-H", "127.0.0.1", "-p", String(PORT)], {
    cwd: projectDir,
    env: { ...process.env, MAILROOM_ROOT: ws, MAILROOM_DATA: data },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const scanLog: string[] = [];
  readline.createInterface({ input: child.stdout }).on("line", (line) => {
    if (line.startsWith("[mailroom] first scan") || line.startsWith("[mailroom] first fills")) scanLog.push(line.replace("[mailroom] ", ""));
  });
  let failure: string | null = null;
  let stopping = false;
  const exited = new Promise<void>((resolve) => {
    child.on("exit", (code, signal) => {
      if (!stopping) failure = `the server exited during the bench (code ${code}, signal ${signal})`;
      resolve();
    });
    child.on("error", (err) => {
      failure = `the server could not be started: ${err.message}`;
      resolve();
    });
  });
  return {
    pid: child.pid ?? 0,
    scanLog,
    /** Throws when the server is no longer running (nothing it was to do will happen). */
    check() {
      if (failure) throw new Error(failure);
    },
    /** Stop it and wait until it has (the next server takes its port); killed when it does not stop within 10 s. */
    async stop() {
      stopping = true;
      closeConnections();
      child.kill("SIGTERM");
      if (await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)])) return;
      child.kill("SIGKILL");
      await exited;
    },
  };
}

export type Server = ReturnType<typeof startServer>;

type Sources = { sources: { protocol: string; indexing: { done: boolean; fullText: boolean } }[] };

/**
 * From `since` (the server's spawn): until every message is listed and filterable, and until
 * full-text search is ready. `sourceCount`: how many sources must be listed (one per protocol found).
 */
export async function timeFirstIngest(server: Server, messages: number, since: number, sourceCount = 1) {
  const newest = watchNewestPage(since);
  const sources = async () => ((await timedJson(`${base}/api/sources`)).body as Sources).sources;
  // Listed = the first scan is done and every message is countable (an empty source list is not "done").
  const listed = async () => {
    const s = await sources();
    if (s.length < sourceCount || !s.every((x) => x.indexing.done)) return null;
    const { totals } = (await timedJson(`${base}/api/stats`)).body as { totals: { messages: number } };
    return totals.messages >= messages ? true : null;
  };
  await waitFor(listed, 3_600_000, "listing", server);
  const listedMs = performance.now() - since;
  const newestPage = await newest.finish();
  await waitFor(async () => ((await sources()).every((s) => s.indexing.fullText) ? true : null), 3_600_000, "full-text index", server);
  return { listedMs, fullTextMs: performance.now() - since, newestPage };
}

export function ensureBuild() {
  const built = path.join(projectDir, ".next", "BUILD_ID");
  const builtAt = fs.existsSync(built) ? fs.statSync(built).mtimeMs : 0;
  // A build older than the code would measure the code as it was.
  const stale = builtAt === 0 || SOURCE_DIRS.some((dir) => newerThan(path.join(projectDir, dir), builtAt));
  if (!stale) return;
  progress(builtAt === 0 ? "building the production server" : "the production build is older than the code: building it again");
  const { status } = spawnSync(path.join(projectDir, "node_modules/.bin/next"), ["build"], { cwd: projectDir, stdio: "inherit" });
  if (status !== 0) throw new Error(`next build failed (exit ${status})`);
}

/** What the production server is built from. */
const SOURCE_DIRS = ["app", "components", "lib", "instrumentation.ts", "proxy.ts", "next.config.ts", "package.json"];

/** Whether `p`, or a file under it (tests aside), was changed after `ms`. */
function newerThan(p: string, ms: number): boolean {
  const stats = fs.statSync(p, { throwIfNoEntry: false });
  if (!stats) return false;
  if (!stats.isDirectory()) return stats.mtimeMs > ms && !/\.test\.tsx?$/.test(p);
  return fs.readdirSync(p).some((name) => newerThan(path.join(p, name), ms));
}

/** Journaled messages, as the overview counts them. */
export async function journaledMessages(): Promise<number> {
  return ((await timedJson(`${base}/api/stats`)).body as { totals: { messages: number } }).totals.messages;
}
