import "server-only";
// The temp files of Mailroom's atomic writes (fs.ts): how they are named, and how the ones an
// interrupted write left behind (a kill -9 between the write and the link) are cleared at the
// next start. Only names of exactly this form are ever removed, never an agent's file.
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { listRealSubdirs } from "@/lib/protocols/fs-safe";

/** `.<target's name>.tmp-<pid>-<8 hex>`: a dotfile, so no layout takes it for a message. */
const TEMP_NAME = /^\.[^/]+\.tmp-[1-9]\d{0,9}-[0-9a-f]{8}$/;

/**
 * Younger than this, a temp file may be a write still under way (another Mailroom on the same
 * workspace, starting as this one runs): a write lasts milliseconds, a few seconds for 8 MiB on a
 * slow disk.
 */
export const STALE_TEMP_MS = 15 * 60 * 1000;

/** The temp file a write of `target` goes through, in the target's folder. */
export function tempNameFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`);
}

/** Where an undo moves a file aside to look at it (fs.ts takeBack): a dotfile, and not a temp name, so never cleared unseen. */
export function undoNameFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.undo-${process.pid}-${randomBytes(4).toString("hex")}`);
}

export function isTempName(name: string): boolean {
  return TEMP_NAME.test(name);
}

/**
 * Remove Mailroom's temp files older than `maxAgeMs` from each folder and the folders directly in
 * it (where writes go: a queue's agent folders); returns the paths removed. Only regular files
 * named as tempNameFor names them; a folder that cannot be read is passed over.
 */
export async function removeStaleTempFiles(dirs: readonly string[], maxAgeMs = STALE_TEMP_MS, now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  for (const top of dirs) {
    const subdirs = await listRealSubdirs(top).catch(() => []);
    for (const dir of [top, ...subdirs.map((d) => path.join(top, d))]) {
      const names = await fs.readdir(dir).catch(() => []);
      for (const name of names.filter(isTempName)) {
        const file = path.join(dir, name);
        const st = await fs.lstat(file).catch(() => null);
        if (!st?.isFile() || now - st.mtimeMs < maxAgeMs) continue;
        // Gone meanwhile (its write ended after all): nothing to do.
        if (await fs.unlink(file).then(() => true, () => false)) removed.push(file);
      }
    }
  }
  return removed;
}

/**
 * removeStaleTempFiles at a start, said in the server log; a failure is logged, never fatal (the
 * layouts never take temp files for messages: left, they only take room).
 */
export async function clearStaleTempFiles(dirs: readonly string[]): Promise<void> {
  try {
    const removed = await removeStaleTempFiles(dirs);
    if (removed.length > 0) console.log(`[mailroom] removed ${removed.length} temp file(s) interrupted writes left: ${removed.join(", ")}`);
  } catch (err) {
    console.error("[mailroom] could not clear the temp files of interrupted writes:", err);
  }
}
