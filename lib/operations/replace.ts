import "server-only";
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { NEW_FILE_MODE } from "./fs";

// The one exception to "never overwrite" (DESIGN "Safety rules"): a file the protocol's own writers
// replace under a lock (shogun's inbox). The caller holds that lock. Like theirs, the temp file is
// `tmpXXXXXXXX.tmp` in the same folder (ignored by every reader: `*.tmp*`), fsynced, then renamed
// over the target, so a reader sees the old file or the new one, never a half-written one.

async function fsyncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, "r").catch(() => null);
  await handle?.sync().catch(() => undefined);
  await handle?.close();
}

/** Replace `target` by `content` atomically; a new file gets mode 0600, an existing one keeps its mode. */
export async function replaceFile(target: string, content: string | Buffer): Promise<void> {
  const dir = path.dirname(target);
  const mode = (await fs.stat(target).catch(() => null))?.mode ?? NEW_FILE_MODE;
  const temp = path.join(dir, `tmp${randomBytes(4).toString("hex")}.tmp`);
  const handle = await fs.open(temp, "wx", mode & 0o777);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await fs.unlink(temp).catch(() => undefined);
    throw err;
  }
  await handle.close();
  try {
    await fs.rename(temp, target);
  } catch (err) {
    await fs.unlink(temp).catch(() => undefined);
    throw err;
  }
  await fsyncDir(dir);
}
