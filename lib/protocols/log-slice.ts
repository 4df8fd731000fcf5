import "server-only";
// A slice of a log kept inside a workspace, read from one safe open (lib/protocols/safe-open.ts):
// a log swapped for a link, a pipe or a hard link to a file elsewhere is never read.
import { openInsideRoot, RefusedFile } from "./safe-open";
import type { LogSlice } from "./types";

/**
 * Bytes [from, from + maxBytes) of a root-relative log (from < 0: the last maxBytes), cut back to
 * the last whole line so a line being written is read once complete. Null when the file is not
 * there; a file Mailroom refuses to read (a link, a pipe…) throws its RefusedFile.
 */
export async function readLogSlice(root: string, relPath: string, from: number, maxBytes: number): Promise<LogSlice | null> {
  const opened = await openInsideRoot(root, relPath).catch((err: unknown) => {
    if (err instanceof RefusedFile && err.reason === "missing") return null;
    throw err;
  });
  if (!opened) return null;
  const { handle, stats } = opened;
  try {
    // A log that shrank was rotated or truncated: start again from its end.
    const start = from < 0 || from > stats.size ? Math.max(0, stats.size - maxBytes) : from;
    const length = Math.min(maxBytes, stats.size - start);
    const buf = Buffer.alloc(length);
    const { bytesRead } = length > 0 ? await handle.read(buf, 0, length, start) : { bytesRead: 0 };
    const chunk = buf.subarray(0, bytesRead);
    const lastNl = chunk.lastIndexOf(0x0a);
    // A line longer than a whole slice is shown in pieces rather than never.
    const whole = lastNl < 0 ? (bytesRead === maxBytes ? chunk : chunk.subarray(0, 0)) : chunk.subarray(0, lastNl + 1);
    return { text: whole.toString("utf8"), from: start, to: start + whole.length, size: stats.size };
  } finally {
    await handle.close();
  }
}
