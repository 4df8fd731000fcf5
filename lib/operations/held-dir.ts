import "server-only";
import fs from "node:fs";
import path from "node:path";
import { openedPathSync } from "@/lib/protocols/safe-open";
import { ApiError } from "@/lib/server/errors";

// A write names its files by path, and a folder on that path can be swapped for a link between
// the check that it is a real folder (resolveForWrite) and the write: an agent racing it then has
// Mailroom, which runs as the operator, write where the link points (a security audit wrote an
// authorized_keys outside the workspace that way). So a change holds each folder it touches open,
// checks that the kernel has it where its path says (a link swapped in anywhere on the way shows
// there), and names entries through the descriptor, /proc/self/fd/N/name (Linux's stand-in for
// openat(2)), which no later swap can redirect. Elsewhere there is no /proc: names are paths.

// O_NONBLOCK: a folder swapped for a pipe fails the open (ENOTDIR) instead of blocking it.
const DIR_FLAGS = fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NONBLOCK;

/** A folder held open for a change, its entries named through the descriptor. */
export class HeldDir {
  private constructor(
    readonly dir: string,
    private readonly fd: number,
    private readonly viaFd: boolean,
  ) {}

  /**
   * Hold `dir` open: an absolute path with no link on it (as resolveForWrite gives). A 409 when it is
   * gone, or when the kernel has the folder opened elsewhere than that path (a link put on the way).
   */
  static open(dir: string, display: string): HeldDir {
    let fd: number;
    try {
      fd = fs.openSync(dir, DIR_FLAGS);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT") throw new ApiError(409, "source_gone", `the folder of ${display} is not there; nothing was changed`);
      if (code === "ENOTDIR" || code === "ELOOP") throw new ApiError(409, "moved", `the folder of ${display} is no longer a folder; nothing was changed`);
      throw err;
    }
    const where = openedPathSync(fd);
    if (where !== null && where !== path.resolve(dir)) {
      fs.closeSync(fd);
      throw new ApiError(409, "moved", `a folder on the way to ${display} was replaced (by a link?) while this change ran; nothing was changed`);
    }
    return new HeldDir(dir, fd, where !== null);
  }

  /** The entry `name` of this very folder, as a path the kernel resolves through the descriptor. */
  at(name: string): string {
    return this.viaFd ? `/proc/self/fd/${this.fd}/${name}` : path.join(this.dir, name);
  }

  /** Make the folder's entries durable (a new name, a removed one). */
  sync(): void {
    try {
      fs.fsyncSync(this.fd);
    } catch {
      // Some filesystems refuse fsync on a folder; the entry is written all the same.
    }
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}

/** Run `fn` with `dir` held (see HeldDir.open), released after. */
export async function withHeldDir<T>(dir: string, display: string, fn: (held: HeldDir) => Promise<T>): Promise<T> {
  const held = HeldDir.open(dir, display);
  try {
    return await fn(held);
  } finally {
    held.close();
  }
}

/**
 * `dir` and any of its folders that are missing, each made through its parent held open (a plain
 * `mkdir -p` went through a folder swapped for a link, and made folders wherever it pointed).
 */
export function makeFolders(dir: string, display: string): void {
  const missing: string[] = [];
  let existing = path.resolve(dir);
  while (!fs.existsSync(existing) && path.dirname(existing) !== existing) {
    missing.unshift(path.basename(existing));
    existing = path.dirname(existing);
  }
  for (const name of missing) {
    const held = HeldDir.open(existing, display);
    try {
      fs.mkdirSync(held.at(name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    } finally {
      held.close();
    }
    existing = path.join(existing, name);
  }
}
