import "server-only";
import { spawn } from "node:child_process";
import { ApiError } from "@/lib/server/errors";

// Node has no flock(2), and the agents' writers lock with it (shogun: `flock` on `<inbox>.lock`).
// util-linux's `flock` binary takes the lock on our behalf and runs a shell that prints "locked"
// and then waits on its stdin: the lock is held exactly as long as that pipe is open. Closing
// stdin releases it; if Mailroom dies, the kernel closes the pipe, `read` returns, the shell and
// `flock` exit and the kernel drops the lock: a crash never leaves it held.
const HOLDER = "echo locked; read _";

/** Run `fn` while holding an exclusive flock(2) on `lockFile` (created if missing); wait at most `waitSeconds`. */
export async function withFlock<T>(lockFile: string, waitSeconds: number, display: string, fn: () => Promise<T>): Promise<T> {
  const child = spawn("flock", ["-x", "-w", String(waitSeconds), lockFile, "sh", "-c", HOLDER], { stdio: ["pipe", "pipe", "pipe"] });
  const exited = new Promise<number | null>((resolve) => {
    child.on("close", (code) => resolve(code));
    child.on("error", () => resolve(null));
  });
  const locked = await new Promise<boolean>((resolve) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("locked")) resolve(true);
    });
    void exited.then(() => resolve(false));
  });
  if (!locked) {
    let err = "";
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    const code = await exited;
    throw new ApiError(409, "locked", `${display} stayed locked (flock) by another writer for ${waitSeconds} s${code === null ? ": the flock program could not be run" : ""}; nothing was changed. ${err.trim()}`.trim());
  }
  try {
    return await fn();
  } finally {
    child.stdin.end();
    // Wait for the release, so whatever the caller does next (rmdir of a lock folder) comes after it.
    await exited;
  }
}
