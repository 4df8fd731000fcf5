import * as crypto from "node:crypto";

/** One-shot hashing (Node ≥ 20.12) costs half of createHash(), and a first scan makes a key per file; Next runs from 20.9. */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === "function"
    ? (text) => crypto.hash("sha256", text, "hex")
    : (text) => crypto.createHash("sha256").update(text).digest("hex");

const stemOf = (relPath: string): string =>
  relPath.slice(relPath.lastIndexOf("/") + 1).replace(/\.[A-Za-z0-9]+$/, "").replace(/[^A-Za-z0-9_-]+/g, "_").slice(0, 64) || "message";

/** A readable, URL-safe, stable key: the file's name at first sight plus a short hash. */
export function makeKey(source: string, relPath: string, messageId: string | null, attempt: number): string {
  return `${stemOf(relPath)}-${sha256Hex(`${source}\0${relPath}\0${messageId ?? ""}\0${attempt}`).slice(0, 8)}`;
}

/** Digits of an entry's byte offset in its key: a 1 TB file's offsets fit, so keys of one file sort by offset. */
const OFFSET_DIGITS = 12;

/**
 * The key of an entry of a file that holds many (a JSONL channel, a YAML inbox): its file's name
 * and the byte it began at, at first sight, plus a short hash of (source, file, locator, message
 * id, attempt). A file's entries sort in the order they were written, so a channel's appends go in
 * at one end of each index on the key (the message and entry rows', the events'). With a key made
 * from the envelope's own (random) id, as makeKey makes it, each of them landed all over those
 * indexes: on a 100 MB KickLang channel, 0.41 against 0.33 CPU-s per 1,000 appends
 * (scripts/bench-append.ts, batches of 200, two runs each), 89 against 58 MB read back. The
 * price: a journal rebuilt after an inbox was rewritten gives its entries other keys (their
 * offsets moved), where a key of the id alone stayed while the entry was in the same file.
 */
export function makeEntryKey(source: string, relPath: string, locator: string, start: number, messageId: string | null, attempt: number): string {
  const at = String(Math.max(0, Math.trunc(start))).padStart(OFFSET_DIGITS, "0");
  return `${stemOf(relPath)}-${at}-${sha256Hex(`${source}\0${relPath}#${locator}\0${messageId ?? ""}\0${attempt}`).slice(0, 8)}`;
}
