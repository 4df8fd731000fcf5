import "server-only";
// The logs an IGNITE workspace writes (`<runtime dir>/logs/*.log`: the queue monitor's and each
// agent's), read a slice at a time, never through a link.
import fs from "node:fs/promises";
import path from "node:path";
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
 * Bytes [from, from + maxBytes) of a log (from < 0: the last maxBytes), cut back to the last
 * whole line so a line being written is read once complete. Null for a name that is not a log here.
 */
export async function readIgniteLog(runtimeDir: string, name: string, from: number, maxBytes: number): Promise<LogSlice | null> {
  if (!LOG_NAME.test(name)) return null;
  const file = path.join(runtimeDir, "logs", name);
  const st = await fs.lstat(file).catch(() => null);
  if (!st?.isFile()) return null;
  // A log that shrank was rotated or truncated: start again from its end.
  const start = from < 0 || from > st.size ? Math.max(0, st.size - maxBytes) : from;
  const length = Math.min(maxBytes, st.size - start);
  const handle = await fs.open(file, "r");
  try {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buf, 0, length, start);
    const chunk = buf.subarray(0, bytesRead);
    const lastNl = chunk.lastIndexOf(0x0a);
    const whole = lastNl < 0 ? (bytesRead === maxBytes ? chunk : chunk.subarray(0, 0)) : chunk.subarray(0, lastNl + 1);
    return { text: whole.toString("utf8"), from: start, to: start + whole.length, size: st.size };
  } finally {
    await handle.close();
  }
}
