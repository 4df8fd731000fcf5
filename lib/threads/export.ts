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

/** The times a zip entry can carry (DOS dates): outside them fflate throws, and the export was a 500. */
const ZIP_FIRST_MS = Date.UTC(1980, 0, 1);
const ZIP_LAST_MS = Date.UTC(2099, 11, 31, 23, 59, 58);

/** A message's time for its zip entry; none when it has none a zip can hold (a KickLang timestamp in seconds reads as 1970). */
export function zipTime(iso: string): number | undefined {
  const ms = Date.parse(iso);
  return ms >= ZIP_FIRST_MS && ms <= ZIP_LAST_MS ? ms : undefined;
}

/**
 * The original files, in time order: `<thread>/<NNNN>-<file name>` (the journal's bytes once a file
 * is gone). A message whose bytes are not all kept and whose file is gone has a note in its place,
 * so the numbering has no silent gap.
 */
async function zipOf(t: ThreadDetail, base: string): Promise<Uint8Array> {
  const files: Zippable = {};
  const width = String(t.messages.length).length;
  for (const [i, m] of t.messages.entries()) {
    const raw = await getRawMessage(m.key);
    const at = `${base}/${String(i + 1).padStart(width, "0")}`;
    const mtime = zipTime(m.date ?? m.updatedAt);
    if (raw) files[`${at}-${raw.fileName.replace(/[^A-Za-z0-9._-]/g, "_")}`] = [new Uint8Array(raw.bytes), { mtime }];
    else files[`${at}-${m.key.replace(/[^A-Za-z0-9._-]/g, "_")}.missing.txt`] = [new TextEncoder().encode(missingNote(m)), { mtime }];
  }
  return zipSync(files, { level: 6 });
}

function missingNote(m: ThreadDetail["messages"][number]): string {
  const what = `${m.type ?? "no type"} from ${m.from ?? "unknown"}, ${m.date ?? "no date"}`;
  return `Message ${m.key} (${what}): its file is gone and Mailroom did not keep all of its bytes (a file over the size kept whole keeps its first part), so its original cannot be given here. Its page shows what was kept.\n`;
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
