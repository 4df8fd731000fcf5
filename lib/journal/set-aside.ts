import "server-only";
import fs from "node:fs";
import path from "node:path";

/** A journal's own files: the database, and SQLite's WAL and its index (which name the database). */
const PARTS = ["", "-wal", "-shm"] as const;

const ASIDE_MARK = ".corrupt-";

/** Copies of this journal moved aside (their main files), oldest first. */
export function asideCopies(file: string): string[] {
  const prefix = path.basename(file) + ASIDE_MARK;
  let names: string[];
  try {
    names = fs.readdirSync(path.dirname(file));
  } catch {
    return [];
  }
  // The stamp sorts by time (an ISO date); a copy's own -wal and -shm go with it.
  return names
    .filter((n) => n.startsWith(prefix) && !n.endsWith("-wal") && !n.endsWith("-shm"))
    .sort()
    .map((n) => path.join(path.dirname(file), n));
}

/** Move `from` to `to`, never replacing a file there: a hard link fails if `to` exists. */
function moveNoReplace(from: string, to: string): void {
  try {
    fs.linkSync(from, to);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // A file system without hard links: a rename, after checking the name is free (only Mailroom makes these names).
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP") throw err;
    if (fs.existsSync(to)) throw Object.assign(new Error(`${to} exists`), { code: "EEXIST" });
    fs.renameSync(from, to);
    return;
  }
  fs.unlinkSync(from);
}

/**
 * Move a journal that cannot be opened aside, with its WAL, to `<file>.corrupt-<time>` (and
 * `-wal`, `-shm` after that name, so SQLite still reads them together), byte for byte: never
 * deleted, never overwritten. Returns the copy's main file.
 */
export function setAside(file: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  for (let n = 0; ; n++) {
    const aside = `${file}${ASIDE_MARK}${stamp}${n === 0 ? "" : `-${n}`}`;
    if (PARTS.some((p) => fs.existsSync(aside + p))) continue;
    for (const part of PARTS) if (fs.existsSync(file + part)) moveNoReplace(file + part, aside + part);
    return aside;
  }
}
