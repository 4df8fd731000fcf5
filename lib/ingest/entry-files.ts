import "server-only";
// Finding and reading the files of a wave-2 source (many entries per file). Listing never follows
// a link except the layout's own (shogun's `queue/inbox`), whose files keep their logical paths;
// reading goes through one safe open and, for a file that only grows, starts where the last read
// stopped, so an append costs the bytes appended.
import { closeSync, lstatSync, readSync, type Stats } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { FileRead } from "@/lib/protocols/entries";
import type { Layout, Place, ProtocolReadSide, ReadContext } from "@/lib/protocols/layout";
import { openInsideRoot, openInsideRootSync } from "@/lib/protocols/safe-open";
import { MAX_FILE_BYTES } from "@/lib/protocols";
import type { EntryFileFacts } from "@/lib/journal/entry-writer";

/** Levels below a watched folder where files are looked for (workflow's `<id>/acks/` is the deepest, at 3). */
const MAX_DEPTH = 5;
/** Files listed per source at most: past this a tree is hostile, not a team's mailboxes. */
const MAX_FILES = 500_000;
/** Bytes compared to tell a file replaced in place (same inode, new content) from one appended to. */
export const HEAD_BYTES = 64;
/** An appended read takes at most this much at once: 100,000 values (json-stream's cap) of ~160 bytes. */
export const APPEND_CHUNK = 16 * 1024 * 1024;
/**
 * A first scan reads this much of the end of a bigger append-only file before the rest (its newest
 * entries are at its end): about 200 values of ~160 bytes (100 of KickLang's ~300), a newest page's
 * worth. Not more: a start's first turn commits every channel's tail before the other sources'
 * newest files, and the bench's three 128 KB tails (1,300 entries) took its first commit alone, so
 * the mixed tree's newest page was in only after four commits.
 */
export const TAIL_BYTES = 32 * 1024;
/**
 * A file of no bytes that its protocol may mean as empty (emptyMeansNone) is, once it has stayed so
 * this long: until then it may be one rewritten in place, between its truncate and its write
 * (shogun's slim_yaml), whose messages would each be trimmed and back. A rescan reads it again.
 */
export const EMPTY_SETTLED_MS = 2_000;

export interface EntrySourceFile {
  relPath: string;
  place: Place;
  size: number;
  mtimeMs: number;
  ino: number;
}

/** Where a logical path is on disk: the root, or the folder a followed link points to. */
export function locate(layout: Layout, relPath: string): { base: string; rel: string } {
  for (const link of layout.links ?? []) {
    if (relPath.startsWith(link.relPath + "/")) return { base: link.dir, rel: relPath.slice(link.relPath.length + 1) };
  }
  return { base: layout.root, rel: relPath };
}

/** The logical path of an absolute one, or null when it lies outside what the layout watches. */
export function logicalPath(layout: Layout, abs: string): string | null {
  for (const link of layout.links ?? []) {
    if (abs.startsWith(link.dir + path.sep)) return `${link.relPath}/${path.relative(link.dir, abs).split(path.sep).join("/")}`;
  }
  const rel = path.relative(layout.root, abs);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel.split(path.sep).join("/") : null;
}

/** Files stat'ed in one synchronous stretch while listing: ~12 ms (0.12 s for 20,000 files, against 0.3-0.5 s of async lstats). */
const LSTAT_SLICE = 2_000;

function lstatOrNull(abs: string): Stats | null {
  try {
    return lstatSync(abs);
  } catch {
    // Gone since the folder was read: not listed.
    return null;
  }
}

/** Every file of the layout its adapter places, with its stat (links never followed). */
export async function listEntryFiles(layout: Layout, side: ProtocolReadSide): Promise<{ files: EntrySourceFile[]; dirs: string[] }> {
  const files: EntrySourceFile[] = [];
  const dirs: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (files.length >= MAX_FILES) return;
    const names = await fs.readdir(dir, { withFileTypes: true }).catch(() => null);
    if (!names) return;
    dirs.push(dir);
    const placed: { abs: string; relPath: string; place: Place }[] = [];
    for (const d of names) {
      const abs = path.join(dir, d.name);
      if (d.isDirectory() && depth < MAX_DEPTH) await walk(abs, depth + 1);
      if (!d.isFile()) continue;
      const relPath = logicalPath(layout, abs);
      const place = relPath ? side.place(relPath) : null;
      if (relPath && place) placed.push({ abs, relPath, place });
    }
    // Stat'ed here, a slice at a time with a turn of the event loop between: an await each took 1 s
    // for 20,000 IGNITE v2 files, before a start's first commit and again before its second turn.
    const taken = placed.slice(0, MAX_FILES - files.length);
    for (let at = 0; at < taken.length; at += LSTAT_SLICE) {
      if (at > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      for (const p of taken.slice(at, at + LSTAT_SLICE)) {
        const st = lstatOrNull(p.abs);
        if (st?.isFile()) files.push({ relPath: p.relPath, place: p.place, size: st.size, mtimeMs: st.mtimeMs, ino: st.ino });
      }
    }
  };
  for (const dir of layout.watchDirs) await walk(dir, 0);
  return { files, dirs };
}

/** One read of a file: the adapter's entries from `from`, with the bytes they came from. */
export interface FileChunk {
  read: FileRead;
  bytes: Uint8Array;
  from: number;
  /** The file's facts as of this chunk (consumed: where it stopped). */
  facts: EntryFileFacts;
}

export interface ReadPlan {
  /** The read begins here, its first chunk's `from`: the last read's `consumed` for an appended file, else 0. */
  from: number;
  /** The file is no longer the one read before (truncated, replaced, a new inode): its old entries left. */
  replaced: boolean;
}

/** Where to read a file from, given what was read of it before. */
export function planRead(appendOnly: boolean, known: EntryFileFacts | undefined, found: { size: number; ino: number }, head: Buffer): ReadPlan {
  if (!known) return { from: 0, replaced: false };
  const sameFile = known.ino === found.ino && found.size >= known.consumed && head.subarray(0, known.head.length).equals(known.head.subarray(0, head.length));
  if (appendOnly && sameFile) return { from: known.consumed, replaced: false };
  return { from: 0, replaced: appendOnly && !sameFile };
}

/** A file read whole (one that is rewritten, not only appended to), through one safe open: null bytes when it is over MAX_FILE_BYTES. */
interface WholeFile {
  facts: EntryFileFacts;
  bytes: Buffer | null;
}

/**
 * Synchronous, as IGNITE's scans read their files (lib/ingest/read.ts): such files are small and
 * many (20,000 IGNITE v2 messages), and the five awaited calls of an asynchronous open, fstat,
 * readlink, read and close cost 2.4 s of CPU for 20,000 files, 8 in flight, against 0.45 s (and
 * less wall) read in turn.
 */
function readWhole(layout: Layout, file: EntrySourceFile): WholeFile {
  const { base, rel } = locate(layout, file.relPath);
  const { fd, stats } = openInsideRootSync(base, rel);
  try {
    const size = stats.size;
    const bytes = size > MAX_FILE_BYTES ? null : Buffer.alloc(size);
    const bytesRead = bytes && size > 0 ? readSync(fd, bytes, 0, size, 0) : 0;
    const head = Buffer.alloc(Math.min(HEAD_BYTES, size));
    if (bytes) bytes.copy(head, 0, 0, Math.min(head.length, bytesRead));
    else readSync(fd, head, 0, head.length, 0);
    return { facts: { size, mtimeMs: stats.mtimeMs, ino: stats.ino, consumed: size, head }, bytes: bytes?.subarray(0, bytesRead) ?? null };
  } finally {
    closeSync(fd);
  }
}

/**
 * Read a placed file through one safe open: whole (up to MAX_FILE_BYTES), or for an appended file
 * from `plan.from` in chunks, each handed to `onChunk` as read so a 100 MB channel never sits in
 * memory whole; each chunk carries the file's facts as of its end.
 */
export async function readEntryFile(
  layout: Layout,
  side: ProtocolReadSide,
  file: EntrySourceFile,
  known: EntryFileFacts | undefined,
  context: ReadContext,
  onChunk: (chunk: FileChunk, plan: ReadPlan) => Promise<void>,
  /** An appended file's chunks are this big (a value too long for one is read again in a bigger, up to APPEND_CHUNK). */
  chunkBytes = APPEND_CHUNK,
): Promise<void> {
  if (!side.appendOnly(file.place)) {
    // Read from its start, never "replaced": only an appended file is read from where it stopped (planRead).
    const { facts, bytes } = readWhole(layout, file);
    const plan: ReadPlan = { from: 0, replaced: false };
    if (facts.size === 0 && !(side.emptyMeansNone?.(file.place) && Date.now() - facts.mtimeMs >= EMPTY_SETTLED_MS)) return;
    if (bytes === null) {
      const read: FileRead = { entries: [], problems: [{ code: "limit", message: `${file.relPath} is ${facts.size} bytes, over the ${MAX_FILE_BYTES}-byte limit for a file read whole: not read.` }], consumed: facts.size };
      await onChunk({ read, bytes: new Uint8Array(0), from: 0, facts }, plan);
      return;
    }
    await onChunk({ read: readSafely(side, file.relPath, bytes, { ...context, offset: 0, mtimeMs: facts.mtimeMs }), bytes, from: 0, facts }, plan);
    return;
  }
  const { base, rel } = locate(layout, file.relPath);
  const { handle, stats } = await openInsideRoot(base, rel);
  try {
    const size = stats.size;
    const head = Buffer.alloc(Math.min(HEAD_BYTES, size));
    await handle.read(head, 0, head.length, 0);
    const plan = planRead(true, known, { size, ino: stats.ino }, head);
    // A chunk short of the file's end records the size it reached: a read cut short after its
    // commit (a stop, a crash) then differs from the file, so the next scan goes on from there.
    // With the file's size recorded it looked unchanged, and the rest was never read.
    const facts = (consumed: number, end: number): EntryFileFacts => ({ size: Math.min(end, size), mtimeMs: stats.mtimeMs, ino: stats.ino, consumed, head });
    let from = plan.from;
    let chunkSize = chunkBytes;
    let handed = false;
    while (from < size) {
      const length = Math.min(chunkSize, size - from);
      const bytes = Buffer.alloc(length);
      const { bytesRead } = await handle.read(bytes, 0, length, from);
      const chunk = bytes.subarray(0, bytesRead);
      const read = readSafely(side, file.relPath, chunk, { ...context, offset: from, mtimeMs: stats.mtimeMs });
      if (read.consumed <= from && bytesRead === length && from + length < size && chunkSize < APPEND_CHUNK) {
        chunkSize = Math.min(chunkSize * 2, APPEND_CHUNK);
        continue;
      }
      handed = true;
      await onChunk({ read, bytes: chunk, from, facts: facts(Math.max(read.consumed, from), from + bytesRead) }, plan);
      // An incomplete last value waits for the rest of its bytes (a write in progress).
      if (read.consumed <= from || bytesRead < length) break;
      from = read.consumed;
    }
    // Nothing new to read (truncated to nothing, or touched): still a chunk, so a replaced file's
    // entries leave and the file's facts are kept (a channel emptied kept its entries present);
    // not for a file as the journal has it (an event that found nothing new is no write).
    const asKnown = known !== undefined && known.size === size && Math.trunc(known.mtimeMs) === Math.trunc(stats.mtimeMs) && known.ino === stats.ino;
    if (!handed && (plan.replaced || !asKnown)) await onChunk({ read: { entries: [], problems: [], consumed: plan.from }, bytes: new Uint8Array(0), from: plan.from, facts: facts(plan.from, size) }, plan);
  } finally {
    await handle.close();
  }
}

/**
 * A read side's read of `bytes`, or, when it throws (a reader's bug that some bytes reach), those
 * bytes passed over with a problem that says so: one file must not stop its source's every scan
 * (a KickLang timestamp near the end of JavaScript's dates did, until addMs was fixed). The bytes stay on disk.
 */
export function readSafely(side: ProtocolReadSide, relPath: string, bytes: Uint8Array, context: ReadContext & { offset: number }): FileRead {
  try {
    return side.read(relPath, bytes, context);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    const at = context.offset > 0 ? ` from byte ${context.offset.toLocaleString("en-US")}` : "";
    return { entries: [], problems: [{ code: "read", message: `Mailroom's ${side.protocol} reader failed on ${relPath}${at} (${why}); these ${bytes.length.toLocaleString("en-US")} bytes were passed over.` }], consumed: context.offset + bytes.length, unparsed: true };
  }
}

/**
 * The newest part of an append-only file not read before: its values from the first that begins a
 * line (a `{` first on it) in its last `tailBytes`. Null when there is none, or when that part does
 * not read cleanly (a start inside a multi-line value would): the file is then read from its start
 * only. How far the file was read is not the tail's to record; its facts are for the rows.
 */
export async function readTail(layout: Layout, side: ProtocolReadSide, file: EntrySourceFile, context: ReadContext, tailBytes: number): Promise<FileChunk | null> {
  const { base, rel } = locate(layout, file.relPath);
  const { handle, stats } = await openInsideRoot(base, rel);
  try {
    const size = stats.size;
    if (size <= tailBytes) return null;
    const head = Buffer.alloc(HEAD_BYTES);
    await handle.read(head, 0, head.length, 0);
    const window = Buffer.alloc(tailBytes);
    const { bytesRead } = await handle.read(window, 0, tailBytes, size - tailBytes);
    const at = window.subarray(0, bytesRead).indexOf("\n{");
    if (at < 0) return null;
    const from = size - tailBytes + at + 1;
    const bytes = window.subarray(at + 1, bytesRead);
    const read = readSafely(side, file.relPath, bytes, { ...context, offset: from, mtimeMs: stats.mtimeMs });
    if (read.problems.length > 0 || read.entries.length === 0) return null;
    return { read, bytes, from, facts: { size, mtimeMs: stats.mtimeMs, ino: stats.ino, consumed: 0, head } };
  } finally {
    await handle.close();
  }
}
