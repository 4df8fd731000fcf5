import "server-only";
// The logs an IGNITE workspace writes (`<runtime dir>/logs/*.log`: the queue monitor's and each
// agent's), read a slice at a time, never through a link.
import fs from "node:fs/promises";
import path from "node:path";
import { readLogSlice } from "@/lib/protocols/log-slice";
import type { LogFile, LogSlice } from "@/lib/protocols/types";

const LOG_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,120}\.log$/;

export async function listIgniteLogs(runtimeDir: string): Promise<LogFile[]> {
  const dir = path.join(runtimeDir, "logs");
  const dirStat = await fs.lstat(dir).catch(() => null);
  if (!dirStat?.isDirectory()) return [];
  const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => LOG_NAME.test(n)).sort();
  const out: LogFile[] = [];
  for (const name of names) {
    const st = await fs.lstat(path.join(dir, name)).catch(() => null);
    if (st?.isFile()) out.push({ name, size: st.size, mtimeMs: st.mtimeMs });
  }
  return out;
}

/**
 * Whole lines of a log from `from` (< 0: its tail), read from one safe open (see readLogSlice).
 * Null for a name that is not a log here.
 */
export async function readIgniteLog(runtimeDir: string, name: string, from: number, maxBytes: number): Promise<LogSlice | null> {
  if (!LOG_NAME.test(name)) return null;
  return readLogSlice(runtimeDir, `logs/${name}`, from, maxBytes);
}
