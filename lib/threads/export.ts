import "server-only";
import { zipSync, type Zippable } from "fflate";
import { getRawMessage, getThread, threadBodies } from "@/lib/journal";
import { slug } from "./ids";
import type { ExportFormat, ThreadDetail } from "./model";
import { threadMarkdown } from "./transcript";

export interface ExportFile {
  bytes: Uint8Array;
  fileName: string;
  contentType: string;
}

/** The original files, in time order: `<thread>/<NNNN>-<file name>` (the journal's bytes once a file is gone). */
async function zipOf(t: ThreadDetail, base: string): Promise<Uint8Array> {
  const files: Zippable = {};
  const width = String(t.messages.length).length;
  for (const [i, m] of t.messages.entries()) {
    const raw = await getRawMessage(m.key);
    if (!raw) continue;
    const name = raw.fileName.replace(/[^A-Za-z0-9._-]/g, "_");
    files[`${base}/${String(i + 1).padStart(width, "0")}-${name}`] = [new Uint8Array(raw.bytes), { mtime: Date.parse(m.date ?? m.updatedAt) || undefined }];
  }
  return zipSync(files, { level: 6 });
}

/** null when no thread has that id. */
export async function exportThread(id: string, format: ExportFormat): Promise<ExportFile | null> {
  const t = getThread(id);
  if (!t) return null;
  const base = `thread-${slug(id)}`;
  if (format === "json") {
    return { bytes: new TextEncoder().encode(JSON.stringify(t, null, 2)), fileName: `${base}.json`, contentType: "application/json; charset=utf-8" };
  }
  if (format === "md") {
    const md = threadMarkdown(t, threadBodies(t.messages.map((m) => m.key)));
    return { bytes: new TextEncoder().encode(md), fileName: `${base}.md`, contentType: "text/markdown; charset=utf-8" };
  }
  return { bytes: await zipOf(t, base), fileName: `${base}.zip`, contentType: "application/zip" };
}
