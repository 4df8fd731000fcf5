import "server-only";
// The inbox locks every shogun writer takes, in their order (protocol doc): `mkdir <inbox>.lock.d`
// (retried every 100 ms for 5 s, as inbox_write.sh does), then flock(2) on `<inbox>.lock`, then the
// caller's temp file + rename; the lock folder is removed last.
import { randomBytes } from "node:crypto";
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

/**
 * Inside a `.lock.d` Mailroom made: `mailroom-<pid>-<8 hex>`, which process holds it. A Mailroom
 * killed holding one (kill -9, a crash) left it behind, and every writer that takes `.lock.d` then
 * failed until someone removed it by hand; the next Mailroom to want the lock removes one whose
 * process is gone. Other writers mkdir and rmdir only their own, so a file inside changes nothing
 * for them. The random part tells this process's markers from a former one's of the same pid (a
 * container restarted as pid 1).
 */
const OWNER = /^mailroom-([1-9]\d{0,9})-[0-9a-f]{8}$/;
/** The markers this process has in the `.lock.d` folders it holds. */
const ours = new Set<string>();

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** Remove `lockDir` if a Mailroom that is no longer running left it; true when it did. */
async function removeOrphaned(lockDir: string): Promise<boolean> {
  const names = await fs.readdir(lockDir).catch(() => null);
  const marker = names?.length === 1 ? (names[0] ?? "") : "";
  const pid = Number(OWNER.exec(marker)?.[1] ?? NaN);
  if (!Number.isInteger(pid) || ours.has(marker) || (pid !== process.pid && running(pid))) return false;
  // Only the one process whose unlink took the marker removes the folder: another's may have made a new one since.
  if (!(await fs.unlink(path.join(lockDir, marker)).then(() => true, () => false))) return false;
  await fs.rmdir(lockDir).catch(() => undefined);
  console.log(`[mailroom] removed ${lockDir}, left by Mailroom process ${pid}, which is no longer running`);
  return true;
}

/** Take `lockDir`; returns the marker left in it (see OWNER). */
async function takeLockDir(lockDir: string, display: string): Promise<string> {
  const deadline = Date.now() + LOCK_DIR_WAIT_MS;
  for (;;) {
    try {
      await fs.mkdir(lockDir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      if (await removeOrphaned(lockDir)) continue;
      if (Date.now() >= deadline) break;
      await sleep(LOCK_DIR_POLL_MS);
      continue;
    }
    const marker = `mailroom-${process.pid}-${randomBytes(4).toString("hex")}`;
    // Ours before it is on disk: another send of this process that finds it there must not take it for a former one's.
    ours.add(marker);
    try {
      await fs.writeFile(path.join(lockDir, marker), "", { flag: "wx" });
      return marker;
    } catch (err) {
      ours.delete(marker);
      await fs.rmdir(lockDir).catch(() => undefined);
      throw err;
    }
  }
  // No shogun writer ever removes another's `.lock.d` (they time out and fail): neither do we, but for a dead Mailroom's.
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
    const marker = await takeLockDir(lockDir, display);
    try {
      return await withFlock(held.at(`${name}.lock`), FLOCK_WAIT_S, display, fn);
    } finally {
      await fs.unlink(path.join(lockDir, marker)).catch(() => undefined);
      // Only once it is off disk (see takeLockDir).
      ours.delete(marker);
      await fs.rmdir(lockDir).catch(() => undefined);
    }
  });
}
