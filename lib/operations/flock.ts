import "server-only";
import { spawn } from "node:child_process";
import fs from "node:fs";
import { ApiError } from "@/lib/server/errors";

// Node has no flock(2), and the agents' writers lock with it (shogun: `flock` on `<inbox>.lock`).
// Mailroom opens the lock file itself, never through a link and never blocking (a pipe there
// opened by name hung the request for the whole wait, and a link made a file wherever it pointed),
// and hands the descriptor to util-linux's `flock <fd>`, which locks it and exits. A flock(2) lock
// belongs to the open file, which Mailroom's descriptor keeps open: the lock is held until that is
// closed, and if Mailroom dies the kernel closes it, so a crash never leaves it held.

// As flock(1) opens it (read-only, created 0666 less the umask), so agents running as another user open it as before.
const LOCK_FLAGS = fs.constants.O_RDONLY | fs.constants.O_CREAT | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;
const LOCK_FILE_MODE = 0o666;

/** The lock file, open: a regular file of this name, never a link, pipe or device. */
function openLockFile(lockFile: string, display: string): number {
  let fd: number;
  try {
    fd = fs.openSync(lockFile, LOCK_FLAGS, LOCK_FILE_MODE);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw new ApiError(409, "not_a_file", `${display}.lock is a link; Mailroom never locks through links. Nothing was changed.`);
    if (code === "ENXIO") throw new ApiError(409, "not_a_file", `${display}.lock is not a regular file; nothing was changed.`);
    throw err;
  }
  if (!fs.fstatSync(fd).isFile()) {
    fs.closeSync(fd);
    throw new ApiError(409, "not_a_file", `${display}.lock is not a regular file (a pipe or device); nothing was changed.`);
  }
  return fd;
}

/** Run `fn` while holding an exclusive flock(2) on `lockFile` (created if missing); wait at most `waitSeconds`. */
export async function withFlock<T>(lockFile: string, waitSeconds: number, display: string, fn: () => Promise<T>): Promise<T> {
  const fd = openLockFile(lockFile, display);
  try {
    // The descriptor is the child's fd 3: `flock 3` locks it (waiting at most waitSeconds) and exits 0, or 1 when it timed out.
    const child = spawn("flock", ["-x", "-w", String(waitSeconds), "3"], { stdio: ["ignore", "ignore", "pipe", fd] });
    let err = "";
    child.stderr?.on("data", (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((resolve) => {
      child.on("close", (c) => resolve(c));
      child.on("error", () => resolve(null));
    });
    if (code !== 0) {
      throw new ApiError(409, "locked", `${display} stayed locked (flock) by another writer for ${waitSeconds} s${code === null ? ": the flock program could not be run" : ""}; nothing was changed. ${err.trim()}`.trim());
    }
    return await fn();
  } finally {
    // Releases the lock (the child's copy of the descriptor closed when it exited).
    fs.closeSync(fd);
  }
}
