import "server-only";
// The inbox locks every shogun writer takes, in their order (protocol doc): `mkdir <inbox>.lock.d`
// (retried every 100 ms for 5 s, as inbox_write.sh does), then flock(2) on `<inbox>.lock`, then the
// caller's temp file + rename; the lock folder is removed last.
import fs from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { withFlock } from "@/lib/operations/flock";
import { withHeldDir } from "@/lib/operations/held-dir";
import { ApiError } from "@/lib/server/api-error";

export const LOCK_DIR_WAIT_MS = 5_000;
const LOCK_DIR_POLL_MS = 100;
/** inbox_write.sh waits 5 s on the flock; the watcher up to 30 s: we wait as long as the most patient. */
export const FLOCK_WAIT_S = 30;
/** The watcher, the most patient writer, gives up on `.lock.d` after 30 s: older than that, no writer holds it. */
const STALE_AFTER_MS = 30_000;

async function takeLockDir(lockDir: string, display: string): Promise<void> {
  const deadline = Date.now() + LOCK_DIR_WAIT_MS;
  for (;;) {
    try {
      await fs.mkdir(lockDir);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    if (Date.now() >= deadline) break;
    await sleep(LOCK_DIR_POLL_MS);
  }
  // No shogun writer ever removes another's `.lock.d` (they time out and fail): neither do we.
  const age = await fs.stat(lockDir).then((s) => Date.now() - s.mtimeMs, () => null);
  const stale = age !== null && age > STALE_AFTER_MS;
  throw new ApiError(
    409,
    "locked",
    stale
      ? `${display} has been locked for ${Math.round(age / 1000)} s (${display}.lock.d exists): a writer probably died holding it. The agents' own writers will fail too until it is removed; if no agent is writing, remove that folder. Nothing was changed.`
      : `${display} stayed locked by another writer for ${LOCK_DIR_WAIT_MS / 1000} s (${display}.lock.d); try again. Nothing was changed.`,
  );
}

/** Run `fn` holding both inbox locks; `display` is the inbox's root-relative path for messages. */
export async function withInboxLock<T>(inboxAbs: string, display: string, fn: () => Promise<T>): Promise<T> {
  const name = path.basename(inboxAbs);
  // Both locks made and removed through the inbox folder held open (held-dir.ts): never through a folder swapped for a link.
  return withHeldDir(path.dirname(inboxAbs), display, async (held) => {
    const lockDir = held.at(`${name}.lock.d`);
    await takeLockDir(lockDir, display);
    try {
      return await withFlock(held.at(`${name}.lock`), FLOCK_WAIT_S, display, fn);
    } finally {
      await fs.rmdir(lockDir).catch(() => undefined);
    }
  });
}
