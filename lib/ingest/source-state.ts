import "server-only";
import type { SourceHealthItem } from "@/lib/model";
import type { LogFile, LogSlice } from "@/lib/protocols";
import type { SourceDocument } from "@/lib/protocols/layout";
import { readInsideRoot, RefusedFile } from "@/lib/protocols/safe-open";
import { ApiError } from "@/lib/server/errors";
import { readableSources } from "./index";
import type { SourceViews } from "./source-views";

// What each workspace says about itself beyond its messages: liveness, logs and documents, read
// when asked (a poll), through each source's protocol (an IGNITE reader or a wave-2 read side).

/** Each readable source's health, as its own state files say it now (null: the protocol keeps none). */
export async function sourcesHealth(nowMs = Date.now()): Promise<SourceHealthItem[]> {
  const sources = await readableSources();
  return Promise.all(sources.map(async (s) => ({ source: s.id, health: (await s.health?.(nowMs)) ?? null })));
}

export async function sourceLogs(): Promise<{ source: string; logs: LogFile[] }[]> {
  const sources = await readableSources();
  return Promise.all(sources.filter((s) => s.logs).map(async (s) => ({ source: s.id, logs: (await s.logs?.()) ?? [] })));
}

/** Terminal colour and cursor codes (CSI and OSC sequences), which a log written for a terminal holds. */
const ANSI = /\x1b(?:\[[0-9;?]*[ -\/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, "");
}

/** Logs are read at most this much per request (the tail when first opened). */
export const LOG_SLICE_BYTES = 64 * 1024;

/** A file Mailroom will not read (a link, a pipe, a hard link…) is a 409 that says which and why. */
function refused(err: unknown): never {
  if (err instanceof RefusedFile) throw new ApiError(409, "not_a_file", `${err.message}.`);
  throw err;
}

async function findSource(source: string): Promise<SourceViews | undefined> {
  return (await readableSources()).find((s) => s.id === source);
}

/** A slice of one source's log with colour codes stripped; null when there is no such source or log. */
export async function readSourceLog(source: string, name: string, from: number): Promise<LogSlice | null> {
  const found = await findSource(source);
  const slice = (await found?.readLog?.(name, from, LOG_SLICE_BYTES).catch(refused)) ?? null;
  return slice && { ...slice, text: stripAnsi(slice.text) };
}

export async function sourceDocuments(): Promise<{ source: string; documents: SourceDocument[] }[]> {
  const sources = await readableSources();
  return Promise.all(sources.filter((s) => s.documents).map(async (s) => ({ source: s.id, documents: (await s.documents?.()) ?? [] })));
}

/** A status board is a few KB (shogun's fixture 1.3 KB); past this it is not shown, only said. */
export const MAX_DOCUMENT_BYTES = 1024 * 1024;

export interface DocumentText {
  source: string;
  name: string;
  relPath: string;
  /** The document as text (invalid UTF-8 replaced), or null when it is over MAX_DOCUMENT_BYTES. */
  text: string | null;
}

/** One document of a source, from one safe open; null when there is no such source or document. */
export async function readSourceDocument(source: string, name: string): Promise<DocumentText | null> {
  const found = await findSource(source);
  const doc = (await found?.documents?.())?.find((d) => d.name === name);
  if (!found || !doc) return null;
  const read = await readInsideRoot(found.root, doc.relPath, MAX_DOCUMENT_BYTES).catch((err: unknown) => {
    if (err instanceof RefusedFile && err.reason === "missing") return null;
    return refused(err);
  });
  if (!read) return null;
  return { source, name, relPath: doc.relPath, text: read.tooLarge ? null : read.bytes.toString("utf8") };
}
