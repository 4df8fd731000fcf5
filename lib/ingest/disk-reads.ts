import "server-only";
import fs from "node:fs";

/**
 * Bytes read from the disk so far (Linux's I/O accounting), by this thread or by the whole process
 * (whose count has the reads of libuv's threads, where an asynchronous read is done), or null
 * where it cannot say.
 */
export function diskReadBytes(of: "thread" | "process" = "thread"): number | null {
  try {
    const bytes = /^read_bytes:\s*(\d+)/m.exec(fs.readFileSync(of === "thread" ? "/proc/thread-self/io" : "/proc/self/io", "utf8"))?.[1];
    return bytes === undefined ? null : Number(bytes);
  } catch {
    return null;
  }
}
