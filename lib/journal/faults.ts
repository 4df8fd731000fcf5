import "server-only";
import path from "node:path";
import type { JournalProblem } from "@/lib/model";
import { JournalFolderError, JournalVersionError } from "./db";
import { asideCopies } from "./set-aside";

/**
 * How often Mailroom tries the journal again after a fault that may clear by itself (space freed,
 * the file made writable, a lock let go). A retry is one rescan, a few ms on a small tree; 5 s
 * keeps a full disk's log and CPU quiet while catching up soon after the space is back.
 */
export const JOURNAL_RETRY_MS = 5000;

/** What went wrong with the journal file, from an error SQLite or the file system gave. */
export type JournalFaultKind = "corrupt" | "full" | "readonly" | "busy" | "unopenable" | "io" | "version";

function codeOf(err: unknown): string | null {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : null;
}

/** What SQLite or the file system said: the first error in `err`'s causes with a code, else `err`. */
function said(err: unknown): string {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = codeOf(e);
    if (code !== null) return `${code}: ${e.message}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/**
 * The kind of journal fault `err` (or what caused it) is; null for any other error. Only SQLite's
 * own codes count, and the file system's for the journal's folder: the same EACCES or ENOSPC from
 * a workspace file is that file's problem, not the journal's.
 */
export function journalFaultKind(err: unknown): JournalFaultKind | null {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof JournalVersionError) return "version";
    const code = codeOf(e);
    if (code === null || (!code.startsWith("SQLITE_") && !(e instanceof JournalFolderError))) continue;
    if (code === "SQLITE_NOTADB" || code.startsWith("SQLITE_CORRUPT")) return "corrupt";
    if (code === "SQLITE_FULL" || code === "ENOSPC" || code === "EDQUOT") return "full";
    if (code.startsWith("SQLITE_READONLY") || code === "EROFS" || code === "EACCES" || code === "EPERM") return "readonly";
    if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) return "busy";
    if (code.startsWith("SQLITE_CANTOPEN")) return "unopenable";
    if (code.startsWith("SQLITE_IOERR") || e instanceof JournalFolderError) return "io";
  }
  return null;
}

/** Faults that can clear without Mailroom doing anything: ingest pauses and tries again. */
export function isTransientFault(kind: JournalFaultKind | null): boolean {
  return kind === "full" || kind === "readonly" || kind === "busy" || kind === "unopenable" || kind === "io";
}

const retrying = `Mailroom tries again every ${JOURNAL_RETRY_MS / 1000} s and catches up by itself; no restart is needed.`;
const stillServed = "Messages journaled so far stay browsable; new changes in the workspace are not journaled meanwhile.";

/** The problem an operator sees for a fault of the journal `file`. */
export function describeFault(kind: JournalFaultKind, file: string, err: unknown): JournalProblem {
  const dir = path.dirname(file);
  const why = said(err);
  const problem = (code: string, message: string, action: string): JournalProblem => ({ code, file, message, action });
  switch (kind) {
    case "full":
      return problem("journal_full", `The disk holding the journal is full (${why}). ${stillServed}`, `Free disk space on the file system of ${dir}. ${retrying}`);
    case "readonly":
      return problem(
        "journal_readonly",
        `The journal cannot be written (${why}). ${stillServed}`,
        `Make ${file} and its folder ${dir} writable (permissions, chattr -i, a read-only mount), or set MAILROOM_DATA to a writable folder and restart. ${retrying}`,
      );
    case "busy":
      return problem(
        "journal_busy",
        `Another process holds the journal locked (${why}). ${stillServed}`,
        `Stop the other program using ${file} (only one Mailroom per MAILROOM_DATA folder). ${retrying}`,
      );
    case "unopenable":
      return problem(
        "journal_unopenable",
        `The journal cannot be opened or created (${why}); nothing can be shown until it can.`,
        `Check that ${dir} exists and that Mailroom may create and write files in it, or set MAILROOM_DATA to such a folder and restart. ${retrying}`,
      );
    case "io":
      return problem("journal_io", `Reading or writing the journal failed (${why}). ${stillServed}`, `Check the disk holding ${dir} (the system log may say more). ${retrying}`);
    case "version":
      return problem("journal_version", err instanceof Error ? err.message : String(err), "Upgrade Mailroom, or set MAILROOM_DATA to another folder and restart.");
    case "corrupt":
      return problem(
        "journal_corrupt",
        `The journal is damaged (${why}). What can still be read is shown.`,
        `Mailroom checks it: if damaged, it is moved aside to ${path.basename(file)}.corrupt-<time> in ${dir} (kept, never deleted) and a new one is built from the workspace tree. If this notice stays, restart Mailroom.`,
      );
  }
}

type FaultListener = (kind: JournalFaultKind) => void;
const registry = globalThis as typeof globalThis & {
  __mailroomJournalFaults?: Map<string, JournalProblem>;
  __mailroomJournalFaultListeners?: Map<string, Set<FaultListener>>;
};
const faults = () => (registry.__mailroomJournalFaults ??= new Map());
const listeners = () => (registry.__mailroomJournalFaultListeners ??= new Map());

/**
 * Be told of each fault reported for the journal `file`, wherever it was met (ingest, or a
 * request): ingest retries, or checks a damaged journal. Returns the unsubscribe.
 */
export function onJournalFault(file: string, listener: FaultListener): () => void {
  const set = listeners().get(file) ?? new Set<FaultListener>();
  listeners().set(file, set.add(listener));
  return () => void set.delete(listener);
}

/**
 * Record `err` as the journal's current fault, if it is one (logged once per change; `action`
 * replaces the usual advice); returns its kind, null when `err` is no journal fault.
 */
export function reportJournalFault(file: string, err: unknown, action?: string): JournalFaultKind | null {
  const kind = journalFaultKind(err);
  if (kind === null) return null;
  const described = describeFault(kind, file, err);
  const problem = action ? { ...described, action } : described;
  if (faults().get(file)?.message !== problem.message) console.error(`[mailroom] journal ${file}: ${problem.message} ${problem.action}`);
  faults().set(file, problem);
  for (const listener of listeners().get(file) ?? []) listener(kind);
  return kind;
}

/** What an open that went through clears. */
const OPEN_FAULTS = ["journal_unopenable", "journal_corrupt", "journal_version"];

/**
 * The journal works again: a write went through, or (`opened`) an open did, which clears only
 * what kept it from opening; a journal SQLite opens read-only still cannot be written.
 */
export function clearJournalFault(file: string, opened = false): void {
  const code = faults().get(file)?.code;
  if (code === undefined || (opened && !OPEN_FAULTS.includes(code))) return;
  faults().delete(file);
  console.log(`[mailroom] journal ${file} works again`);
}

/** The journal's current fault, else the notice of a copy moved aside; null when all is well. */
export function journalProblem(file: string): JournalProblem | null {
  const fault = faults().get(file);
  if (fault) return fault;
  const aside = asideCopies(file).at(-1);
  if (!aside) return null;
  return {
    code: "journal_moved_aside",
    file: aside,
    message:
      `The journal ${file} could not be opened and was moved aside to ${aside} (kept as it was); a new one is built from the workspace tree. ` +
      "History only the old file held (messages whose files were gone by then, past actions) is not in the new one.",
    action: `Keep ${aside} to inspect or recover it (sqlite3 can read what is intact), or delete it: this notice goes once no ${path.basename(file)}.corrupt-* file is left in ${path.dirname(file)}.`,
  };
}
