// A production server of its own for a spec that needs other settings than Playwright's web
// server (a token, a big workspace): `next start` on a port the OS found free, its output kept for
// checks. A fixed port next to Playwright's collided once on a shared CI host: the spec then
// polled someone else's server for a minute and failed saying nothing of why.
import { execFileSync, spawn } from "node:child_process";
import path from "node:path";

export interface OwnServer {
  base: string;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  stop(): void;
}

/**
 * A port nothing listens on now: the OS picks it for a listener that closes at once. Asked of a
 * child process, so Playwright's config (which cannot wait) asks the same way as a spec.
 */
export function freePort(host = "127.0.0.1"): number {
  const probe = `const s = require("net").createServer().listen(0, ${JSON.stringify(host)}, () => { process.stdout.write(String(s.address().port)); s.close(); })`;
  const port = Number(execFileSync(process.execPath, ["-e", probe], { encoding: "utf8" }));
  if (!Number.isInteger(port) || port <= 0) throw new Error(`no free port from the OS on ${host}`);
  return port;
}

const READY_MS = 60_000;

/**
 * Starts `next start` and resolves once it answers HTTP (any status: a token server answers 403).
 * Rejects with everything the server printed if it exits first or has not answered in a minute.
 * `listen` is the address given to `next start -H` (127.0.0.1 unless a spec needs another).
 */
export async function startOwnServer(opts: { root: string; data: string; env?: Record<string, string>; listen?: string }): Promise<OwnServer> {
  const port = freePort(opts.listen ?? "127.0.0.1");
  const server = spawn(path.join(__dirname, "..", "node_modules", ".bin", "next"), ["start", "-H", opts.listen ?? "127.0.0.1", "-p", String(port)], {
    env: { ...process.env, MAILROOM_ROOT: opts.root, MAILROOM_DATA: opts.data, ...opts.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let exited: string | null = null;
  const keep = (chunk: Buffer) => (output += chunk.toString());
  server.stdout?.on("data", keep);
  server.stderr?.on("data", keep);
  server.on("exit", (code, signal) => (exited = `exited with ${signal ?? `code ${code}`}`));
  const own: OwnServer = { base: `http://127.0.0.1:${port}`, output: () => output, stop: () => server.kill("SIGTERM") };

  const deadline = Date.now() + READY_MS;
  for (;;) {
    if (exited) throw new Error(`the server on port ${port} ${exited} before it answered. It printed:\n${output}`);
    if (await fetch(`${own.base}/api/health`).then(() => true, () => false)) return own;
    if (Date.now() > deadline) {
      own.stop();
      throw new Error(`the server on port ${port} did not answer in ${READY_MS / 1000} s. It printed:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
