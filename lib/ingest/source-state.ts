import "server-only";
import type { SourceHealthItem } from "@/lib/model";
import type { LogFile, LogSlice } from "@/lib/protocols";
import { readableSources } from "./index";

// What each workspace says about itself beyond its messages: liveness and logs, read when asked
// (a poll), from the adapter of each source ingest reads.

/** Each readable source's health, as its own state files say it now (null: the protocol keeps none). */
export async function sourcesHealth(nowMs = Date.now()): Promise<SourceHealthItem[]> {
  const sources = await readableSources();
  return Promise.all(sources.map(async (s) => ({ source: s.id, health: (await s.reader.health?.(nowMs)) ?? null })));
}

export async function sourceLogs(): Promise<{ source: string; logs: LogFile[] }[]> {
  const sources = await readableSources();
  return Promise.all(sources.filter((s) => s.reader.logs).map(async (s) => ({ source: s.id, logs: (await s.reader.logs?.()) ?? [] })));
}

/** Terminal colour and cursor codes (CSI and OSC sequences), which a log written for a terminal holds. */
const ANSI = /\x1b(?:\[[0-9;?]*[ -\/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, "");
}

/** Logs are read at most this much per request (the tail when first opened). */
export const LOG_SLICE_BYTES = 64 * 1024;

/** A slice of one source's log with colour codes stripped; null when there is no such source or log. */
export async function readSourceLog(source: string, name: string, from: number): Promise<LogSlice | null> {
  const found = (await readableSources()).find((s) => s.id === source);
  const slice = (await found?.reader.readLog?.(name, from, LOG_SLICE_BYTES)) ?? null;
  return slice && { ...slice, text: stripAnsi(slice.text) };
}
