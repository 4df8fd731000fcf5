import "server-only";
import fs from "node:fs";
import path from "node:path";
import { ApiError } from "@/lib/server/errors";
import { NEW_FILE_MODE } from "./fs";
import { HeldDir, makeFolders } from "./held-dir";

// One line appended to a shared stream (workflow channels, KickLang channels; DESIGN "Writes follow
// each protocol's own discipline"): the whole line in ONE write(2) on a descriptor opened with
// O_APPEND. PIPE_BUF (4 KiB) bounds atomicity for pipes only; for a regular file on a local Linux
// filesystem (ext4, xfs, btrfs, tmpfs) write(2) holds the inode lock for the whole call, so
// concurrent appenders never interleave, whatever the size (writer-race tests: many processes,
// lines from 100 B to 64 KiB). Network filesystems give no such promise, so a line over 4 KiB
// gets a warning in its plan; lines are capped at the readers' limit for one value (1 MiB).

export const ATOMIC_PROMISED_BYTES = 4096;
export const MAX_LINE_BYTES = 1024 * 1024;

/** Why `line` cannot be appended as one record, or null. */
export function lineProblem(line: string): string | null {
  if (!line.endsWith("\n") || line.indexOf("\n") !== line.length - 1) return "must be exactly one line ending in a line feed";
  if (Buffer.byteLength(line, "utf8") > MAX_LINE_BYTES) return `is over ${MAX_LINE_BYTES} bytes, the most a reader takes as one value`;
  return null;
}

export function sizeWarnings(line: string): string[] {
  const bytes = Buffer.byteLength(line, "utf8");
  return bytes > ATOMIC_PROMISED_BYTES
    ? [`The line is ${bytes} bytes: appends over ${ATOMIC_PROMISED_BYTES} bytes are atomic on local filesystems only (not NFS).`]
    : [];
}

/**
 * A file whose last line has no line feed, changed this recently, may be a line still being
 * written: an append waits (a 409 to try again) instead of ending it. Older, it was left cut (a
 * writer killed, a full disk): the append ends it first, so only that value is lost, not also the
 * one appended (readers split on line feeds; glued on, the workflow tool dropped both).
 */
export const UNFINISHED_LINE_MS = 5_000;

/** O_NONBLOCK: a pipe there fails at once (ENXIO, no reader) or opens without waiting, and is then refused; a plain open waited for a reader, holding the server. */
const APPEND_FLAGS = fs.constants.O_RDWR | fs.constants.O_APPEND | fs.constants.O_CREAT | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;

/** Whether the file's last byte is a line feed (true for an empty file). */
function endsWithLineFeed(fd: number): boolean {
  const { size } = fs.fstatSync(fd);
  if (size === 0) return true;
  const last = Buffer.alloc(1);
  return fs.readSync(fd, last, 0, 1, size - 1) === 1 && last[0] === 0x0a;
}

/**
 * Pauses before looking at the file's end again: another appender's write(2) in progress shows
 * its line part-written to a reader (pages are copied one by one). Six looks over 31 ms at most:
 * beside six processes appending lines of up to 64 KiB (the workflow writer's race test), the first
 * look found a cut line in 5 of 42 appends, and each was whole again by the second or third.
 */
const LOOK_AGAIN_MS = [1, 2, 4, 8, 16];
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Whether the file ends in a whole line, looking again while a write may be in progress. */
function endsWholeLine(fd: number): boolean {
  if (endsWithLineFeed(fd)) return true;
  for (const ms of LOOK_AGAIN_MS) {
    pause(ms);
    if (endsWithLineFeed(fd)) return true;
  }
  return false;
}

/** Append `line` to `abs` (created with mode 0600 and its folders if missing; never through a link, only to a regular file of one name). */
export function appendLine(abs: string, line: string, display: string, now = Date.now()): void {
  const problem = lineProblem(line);
  if (problem) throw new ApiError(400, "bad_line", `the record for ${display} ${problem}`);
  makeFolders(path.dirname(abs), display);
  // Opened through its folder held open (held-dir.ts): a folder swapped for a link meanwhile is not followed.
  const held = HeldDir.open(path.dirname(abs), display);
  let fd: number;
  try {
    fd = fs.openSync(held.at(path.basename(abs)), APPEND_FLAGS, NEW_FILE_MODE);
  } catch (err) {
    held.close();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw new ApiError(400, "not_a_file", `${display} is a link; Mailroom never writes through links`);
    if (code === "ENXIO") throw new ApiError(409, "not_a_file", `${display} is a pipe, not a file; nothing was written`);
    throw err;
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new ApiError(409, "not_a_file", `${display} is not a regular file (a pipe or device); nothing was written`);
    // Another name for the same bytes, perhaps outside the workspace: not the agents' channel.
    if (st.nlink !== 1) throw new ApiError(409, "not_a_file", `${display} has ${st.nlink} hard links; Mailroom appends only to files with one. Nothing was written.`);
    const ended = endsWholeLine(fd);
    const changedMs = now - fs.fstatSync(fd).mtimeMs;
    if (!ended && changedMs < UNFINISHED_LINE_MS) {
      throw new ApiError(409, "unfinished_line", `${display} ends in a line still being written (changed ${Math.max(0, Math.round(changedMs / 1000))} s ago, no line feed yet). Nothing was written; try again in a few seconds.`);
    }
    // One write(2) either way: the line feed that ends a cut value goes with the line.
    const buf = Buffer.from(ended ? line : `\n${line}`, "utf8");
    const written = fs.writeSync(fd, buf, 0, buf.length);
    // A short write on a local file means a full disk; the reader treats the cut value as a write in progress.
    if (written !== buf.length) throw new ApiError(500, "short_write", `only ${written} of ${buf.length} bytes reached ${display} (disk full?)`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
    held.close();
  }
}
