import "server-only";
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { NEW_FILE_MODE } from "./fs";
import { withHeldDir } from "./held-dir";

// The one exception to "never overwrite" (DESIGN "Safety rules"): a file the protocol's own writers
// replace under a lock (shogun's inbox). The caller holds that lock. Like theirs, the temp file is
// `tmpXXXXXXXX.tmp` in the same folder (ignored by every reader: `*.tmp*`), fsynced, then renamed
// over the target, so a reader sees the old file or the new one, never a half-written one.

/** Replace `target` by `content` atomically; a new file gets mode 0600, an existing one keeps its mode. */
export async function replaceFile(target: string, content: string | Buffer): Promise<void> {
  const name = path.basename(target);
  // Every step through the folder held open (held-dir.ts): a folder swapped for a link meanwhile is not followed.
  await withHeldDir(path.dirname(target), name, async (held) => {
    const mode = (await fs.stat(held.at(name)).catch(() => null))?.mode ?? NEW_FILE_MODE;
    const temp = `tmp${randomBytes(4).toString("hex")}.tmp`;
    const handle = await fs.open(held.at(temp), "wx", mode & 0o777);
    try {
      await handle.writeFile(content);
      await handle.sync();
    } catch (err) {
      await handle.close();
      await fs.unlink(held.at(temp)).catch(() => undefined);
      throw err;
    }
    await handle.close();
    try {
      await fs.rename(held.at(temp), held.at(name));
    } catch (err) {
      await fs.unlink(held.at(temp)).catch(() => undefined);
      throw err;
    }
    held.sync();
  });
}
