import "server-only";
import { DEAD_LETTER_FOLDER, type Folder, type Status } from "@/lib/model";
import { FILE_LIFE } from "./file-life";
import { addEvent, nextSeq, type WriterParts } from "./writer-parts";

/**
 * A message whose file is gone lives on as its dead letters: dead while one is in dead_letter/
 * (restored there, even after it was requeued and completed), discarded once none is and one is
 * in the archive. A rebuilt journal reads the same files the same way (lib/ingest/sync.ts
 * prepareOriginal). With no dead letter left on disk, it stays as it was.
 */
export class HeldStatus {
  /** Originals whose status waits for the end of settlingOnce(). */
  private waiting: Set<string> | null = null;

  constructor(private readonly parts: WriterParts) {}

  /** Settle the status of the message `originalKey` as its letters stand (at the end of settlingOnce, inside one). */
  settle(originalKey: string): void {
    if (this.waiting) this.waiting.add(originalKey);
    else this.settleNow(originalKey);
  }

  /**
   * Run `fn` (inside a transaction) with each message held by dead letters settled once, at its
   * end, as its letters then stand: a rescan that finds one letter archived and another written
   * would otherwise journal "dead → discarded", then "discarded → dead", a stay that never was.
   */
  settlingOnce<T>(fn: () => T): T {
    if (this.waiting) return fn();
    const held = (this.waiting = new Set());
    try {
      const result = fn();
      this.waiting = null;
      for (const key of held) this.settleNow(key);
      return result;
    } finally {
      this.waiting = null;
    }
  }

  private settleNow(originalKey: string): void {
    const { sql } = this.parts;
    const original = sql("SELECT path, status FROM messages WHERE key = ?").get(originalKey) as { path: string | null; status: Status } | undefined;
    if (!original || original.path !== null) return;
    const letters = sql("SELECT folder FROM messages WHERE dead_letter_of = ? AND path IS NOT NULL").pluck().all(originalKey) as Folder[];
    let status = original.status;
    // Whatever it was when its file went (completed, discarded, or invalid: unreadable, yet dead-lettered).
    if (letters.includes(DEAD_LETTER_FOLDER)) status = FILE_LIFE.held;
    else if (letters.includes(FILE_LIFE.archive) && status === FILE_LIFE.held) status = FILE_LIFE.discarded;
    if (status === original.status) return;
    const atMs = this.parts.now();
    sql("UPDATE messages SET status = ?, updated_ms = ?, seq = ? WHERE key = ?").run(status, atMs, nextSeq(this.parts), originalKey);
    addEvent(this.parts, originalKey, atMs, "status", `${original.status} → ${status}`);
  }
}
