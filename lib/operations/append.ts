import "server-only";
import fs from "node:fs";
import path from "node:path";
import { ApiError } from "@/lib/server/errors";
import { NEW_FILE_MODE } from "./fs";
import { HeldDir, makeFolders } from "./held-dir";
import { setTimeout as sleep } from "node:timers/promises";

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
const OPEN_FLAGS = fs.constants.O_APPEND | fs.constants.O_CREAT | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;

/** Whether the file's last byte is a line feed (true for an empty file, and for one Mailroom may write but not read). */
function endsWithLineFeed(fd: number, readable: boolean): boolean {
  const { size } = fs.fstatSync(fd);
  if (size === 0 || !readable) return true;
  const last = Buffer.alloc(1);
  return fs.readSync(fd, last, 0, 1, size - 1) === 1 && last[0] === 0x0a;
}

/**
 * Pauses before looking at the file's end again, 2 s in all: another appender's write(2) in
 * progress shows its line part-written to a reader (pages are copied one by one). Beside six
 * processes appending lines of up to 64 KiB (the workflow writer's race test), the first look found
 * a cut line in 5 of 42 appends, each whole again within 3 ms; a writer the scheduler stops
 * mid-line on a loaded machine takes longer, and is not a line left cut.
 */
const LOOK_AGAIN_MS = [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];

/** A channel opened for one append (see appendLine): its descriptor, readable unless only writing was allowed. */
interface Opened {
  fd: number;
  held: HeldDir;
  readable: boolean;
}

function openForAppend(abs: string, line: string, display: string): Opened {
  const problem = lineProblem(line);
  if (problem) throw new ApiError(400, "bad_line", `the record for ${display} ${problem}`);
  makeFolders(path.dirname(abs), display);
  // Opened through its folder held open (held-dir.ts): a folder swapped for a link meanwhile is not followed.
  const held = HeldDir.open(path.dirname(abs), display);
  const open = (rw: number) => fs.openSync(held.at(path.basename(abs)), rw | OPEN_FLAGS, NEW_FILE_MODE);
  try {
    try {
      return { fd: open(fs.constants.O_RDWR), held, readable: true };
    } catch (err) {
      // A file Mailroom may append to but not read: written to as before, its end unseen.
      if ((err as NodeJS.ErrnoException).code !== "EACCES") throw err;
      return { fd: open(fs.constants.O_WRONLY), held, readable: false };
    }
  } catch (err) {
    held.close();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw new ApiError(400, "not_a_file", `${display} is a link; Mailroom never writes through links`);
    if (code === "ENXIO") throw new ApiError(409, "not_a_file", `${display} is a pipe, not a file; nothing was written`);
    throw err;
  }
}

/** Refuse what is no channel (a pipe, a device, a file of several names). */
function checkIsChannel({ fd }: Opened, display: string): void {
  const st = fs.fstatSync(fd);
  if (!st.isFile()) throw new ApiError(409, "not_a_file", `${display} is not a regular file (a pipe or device); nothing was written`);
  // Another name for the same bytes, perhaps outside the workspace: not the agents' channel.
  if (st.nlink !== 1) throw new ApiError(409, "not_a_file", `${display} has ${st.nlink} hard links; Mailroom appends only to files with one. Nothing was written.`);
}

/** The line, after ending a cut last line left long enough (see UNFINISHED_LINE_MS), in one write(2). */
function writeLine({ fd }: Opened, line: string, display: string, ended: boolean, now: number): void {
  const changedMs = now - fs.fstatSync(fd).mtimeMs;
  if (!ended && changedMs < UNFINISHED_LINE_MS) {
    throw new ApiError(409, "unfinished_line", `${display} ends in a line still being written (changed ${Math.max(0, Math.round(changedMs / 1000))} s ago, no line feed yet). Nothing was written; try again in a few seconds.`);
  }
  // One write(2) either way: the line feed that ends a cut value goes with the line.
  const buf = Buffer.from(ended ? line : `\n${line}`, "utf8");
  const written = fs.writeSync(fd, buf, 0, buf.length);
  // A short write on a local file means a full disk; the next append ends the cut value (see above).
  if (written !== buf.length) throw new ApiError(500, "short_write", `only ${written} of ${buf.length} bytes reached ${display} (disk full?)`);
  fs.fsyncSync(fd);
}

function close({ fd, held }: Opened): void {
  fs.closeSync(fd);
  held.close();
}

/**
 * Append `line` to `abs` (created with mode 0600 and its folders if missing; never through a link,
 * only to a regular file of one name), never onto a cut last line (see UNFINISHED_LINE_MS). Waits
 * for one being written without holding the event loop.
 */
export async function appendLine(abs: string, line: string, display: string, now?: number): Promise<void> {
  const opened = openForAppend(abs, line, display);
  try {
    checkIsChannel(opened, display);
    let ended = endsWithLineFeed(opened.fd, opened.readable);
    for (const ms of LOOK_AGAIN_MS) {
      if (ended) break;
      await sleep(ms);
      ended = endsWithLineFeed(opened.fd, opened.readable);
    }
    writeLine(opened, line, display, ended, now ?? Date.now());
  } finally {
    close(opened);
  }
}

/** appendLine without waiting, for a writer whose channels no one else writes (the demo's teams): a cut line is refused or ended at once. */
export function appendLineNow(abs: string, line: string, display: string): void {
  const opened = openForAppend(abs, line, display);
  try {
    checkIsChannel(opened, display);
    writeLine(opened, line, display, endsWithLineFeed(opened.fd, opened.readable), Date.now());
  } finally {
    close(opened);
  }
}
