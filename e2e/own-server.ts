// A production server of its own for a spec that needs other settings than Playwright's web
// server (a token, a big workspace): `next start` on the next port, its output kept for checks.
import { spawn } from "node:child_process";
import path from "node:path";

export interface OwnServer {
  base: string;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  stop(): void;
}

/** `listen` is the address given to `next start -H` (127.0.0.1 unless a spec needs another). */
export function startOwnServer(opts: { root: string; data: string; portOffset: number; env?: Record<string, string>; listen?: string }): OwnServer {
  const port = Number(process.env.MAILROOM_E2E_PORT ?? 3300) + opts.portOffset;
  const server = spawn(path.join(__dirname, "..", "node_modules", ".bin", "next"), ["start", "-H", opts.listen ?? "127.0.0.1", "-p", String(port)], {
    env: { ...process.env, MAILROOM_ROOT: opts.root, MAILROOM_DATA: opts.data, ...opts.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer) => (output += chunk.toString());
  server.stdout?.on("data", keep);
  server.stderr?.on("data", keep);
  return { base: `http://127.0.0.1:${port}`, output: () => output, stop: () => server.kill("SIGTERM") };
}
