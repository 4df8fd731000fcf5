import "server-only";
// The journal side of wave 2: files that hold many entries (a shogun inbox, a JSONL channel). A
// message is (source, path, locator); an entry that vanishes from one file and shows up in another
// (shogun's archive) keeps its key and history; one that vanishes for good keeps its last status.
// Everything a protocol means (statuses, threads, due times, rule problems) comes from its adapter
// through the contract: this file names no protocol's folders, headers or statuses.
import type { Statement } from "better-sqlite3";
import type { Entry } from "@/lib/protocols/entries";
import type { Db } from "./db";
import { journalWord, problemEntry, rawOf, sizeOf, type DeletedFile, type EntryFileFacts, type EntryFileRead, type EntrySourceContext } from "./entry-rows";
import { EntryStore, type StoredEntry } from "./entry-store";
import { preparedOnce } from "./prepared";
import { neighbourhood, settle } from "./entry-settle";
import { makeKey } from "./keys";
import { previewOf } from "./message-row";
import { taskIdOf } from "./task-id";
import { refreshThreadKey } from "./thread-keys";

/** Entries shown as messages: acks only settle their message, logs are the source's log. */
const SHOWN = new Set(["message", "document"]);
interface Pending {
  changed: Set<number>;
  /** Acks read for the first time: each is a step in its message's history. */
  acks: Entry[];
  raw: Map<number, Buffer>;
  facts: Map<string, EntryFileFacts>;
  /** Entry id → how it left its file, for its history. */
  left: Map<number, { kind: "trimmed" | "gone" | "moved"; detail: string; data: Record<string, string | null> }>;
}

export class EntryWriter {
  /** Each SQL text prepared once (see prepared.ts). */
  private readonly sql: (text: string) => Statement;
  private readonly store: EntryStore;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.store = new EntryStore(db);
    this.sql = preparedOnce(db);
  }


  private nextSeq(): number {
    return (this.sql("UPDATE meta SET value = value + 1 WHERE name = 'seq' RETURNING value").get() as { value: number }).value;
  }

  /** How far each file of a source was read, by path. */
  files(source: string): Map<string, EntryFileFacts> {
    const rows = this.sql("SELECT path, size, mtime_ms AS mtimeMs, ino, consumed, head FROM entry_files WHERE source = ?").all(source) as ({ path: string } & EntryFileFacts)[];
    return new Map(rows.map(({ path, ...facts }) => [path, facts]));
  }

  /**
   * Journal what a batch of files now holds, and the files gone from it, in one transaction: moves
   * between files of the batch are matched before anything counts as having left.
   */
  apply(ctx: EntrySourceContext, reads: readonly EntryFileRead[], deleted: readonly DeletedFile[] = []): number {
    const pending: Pending = { changed: new Set(), acks: [], raw: new Map(), facts: new Map(), left: new Map() };
    const run = this.db.transaction(() => {
      const leaving: StoredEntry[] = [];
      const touched = new Set<number>();
      for (const read of reads) leaving.push(...this.journalFile(ctx, read, pending, touched));
      // After the reads: a file read again from its start keeps the entries it still holds.
      const why = new Map(deleted.map((d) => [d.relPath, d.why]));
      for (const { relPath } of deleted) {
        for (const s of this.store.inFile(ctx.source, relPath)) if (!touched.has(s.id)) leaving.push(s);
        if (!reads.some((r) => r.relPath === relPath)) this.sql("DELETE FROM entry_files WHERE source = ? AND path = ?").run(ctx.source, relPath);
      }
      for (const s of leaving) this.leave(ctx, s, why.get(s.path ?? "") ?? null, pending);
      this.settleChanged(ctx, pending);
    });
    run();
    return pending.changed.size;
  }

  private journalFile(ctx: EntrySourceContext, read: EntryFileRead, pending: Pending, touched: Set<number>): StoredEntry[] {
    const { relPath, facts } = read;
    pending.facts.set(relPath, facts);
    const agent = read.entries[0]?.agent ?? relPath.split("/").slice(-1)[0] ?? "";
    const folder = read.entries[0]?.folder ?? "";
    const entries = [...read.entries, ...read.problems.map((p, i) => problemEntry(p, read.from, i, agent, folder))];
    const here = new Set<string>();
    for (const e of entries) {
      here.add(e.locator);
      const { id, changed, isNew } = this.journalEntry(ctx, relPath, e, pending);
      touched.add(id);
      if (!changed) continue;
      pending.changed.add(id);
      if (e.kind === "ack" && isNew) pending.acks.push(e);
      const raw = rawOf(e, read);
      if (raw) pending.raw.set(id, raw);
    }
    this.sql(
      `INSERT INTO entry_files (source, path, size, mtime_ms, ino, consumed, head) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (source, path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms, ino = excluded.ino,
         consumed = excluded.consumed, head = excluded.head`,
    ).run(ctx.source, relPath, facts.size, Math.trunc(facts.mtimeMs), facts.ino, facts.consumed, facts.head);
    // Only a whole read knows what the file no longer holds (an appended read saw just the new bytes).
    return read.whole ? this.store.inFile(ctx.source, relPath).filter((s) => !here.has(s.entry.locator)) : [];
  }

  /** The entry's id, whether it changed, and whether it was never journaled before. */
  private journalEntry(ctx: EntrySourceContext, relPath: string, e: Entry, pending: Pending): { id: number; changed: boolean; isNew: boolean } {
    const stored = this.store.at(ctx.source, relPath, e.locator);
    if (stored) return { id: stored.id, changed: this.store.update(stored, relPath, e), isNew: false };
    // Back from where it went (a move seen in two batches), or still in the file it is leaving.
    const earlier = e.messageId ? (this.store.gone(ctx.source, e.messageId, e.kind) ?? this.store.twinElsewhere(ctx.source, e.messageId, e.kind, relPath)) : null;
    if (earlier && earlier.path !== null) return { id: this.store.insert(this.newKey(ctx.source, relPath, e), ctx.source, relPath, e), changed: true, isNew: true };
    if (earlier) {
      const from = earlier.entry.folder;
      pending.left.set(earlier.id, { kind: "moved", detail: `back, in ${relPath}`, data: { from: null, to: relPath, fromFolder: from, toFolder: e.folder } });
      this.store.update(earlier, relPath, e);
      return { id: earlier.id, changed: true, isNew: false };
    }
    return { id: this.store.insert(this.newKey(ctx.source, relPath, e), ctx.source, relPath, e), changed: true, isNew: true };
  }

  /**
   * An entry no longer in its file. With a twin (same id and kind) in another file it moved there:
   * the older key goes on at the twin's place, and the twin's own row (its first sight) gives way.
   */
  private leave(ctx: EntrySourceContext, s: StoredEntry, fileGone: DeletedFile["why"] | null, pending: Pending): void {
    const from = s.path ?? "";
    const twin = s.entry.messageId ? this.store.twinElsewhere(ctx.source, s.entry.messageId, s.entry.kind, from) : null;
    if (twin && twin.path !== null) {
      const raw = pending.raw.get(twin.id);
      const moved = { ...twin.entry, data: this.store.dataOf(twin.id) };
      this.dropRow(twin.key);
      this.store.remove(twin.id);
      pending.changed.delete(twin.id);
      this.store.update(s, twin.path, moved);
      if (raw) pending.raw.set(s.id, raw);
      pending.changed.add(s.id);
      pending.left.set(s.id, { kind: "moved", detail: `moved from ${from} to ${twin.path}`, data: { from, to: twin.path, fromFolder: s.entry.folder, toFolder: twin.entry.folder } });
      return;
    }
    this.store.markGone(s.id);
    pending.changed.add(s.id);
    pending.left.set(
      s.id,
      fileGone
        ? { kind: "gone", detail: fileGone === "deleted" ? `${from} was deleted` : `${from} was truncated or replaced: its entry is no longer there`, data: { from, to: null } }
        : { kind: "trimmed", detail: `no longer in ${from} (the file was rewritten without it)`, data: { from, to: null } },
    );
  }

  private dropRow(key: string): void {
    this.sql("DELETE FROM events WHERE key = ?").run(key);
    this.sql("DELETE FROM messages WHERE key = ?").run(key);
  }

  private newKey(source: string, relPath: string, e: Entry): string {
    const exists = this.sql("SELECT 1 FROM entries WHERE key = ? UNION ALL SELECT 1 FROM messages WHERE key = ?");
    const origin = e.locator === "" ? relPath : `${relPath}#${e.locator}`;
    for (let attempt = 0; ; attempt++) {
      const key = makeKey(source, origin, e.messageId, attempt);
      if (!exists.get(key, key)) return key;
    }
  }

  /** Settle what the changes touch, then write each shown entry's message row and history. */
  private settleChanged(ctx: EntrySourceContext, pending: Pending): void {
    if (pending.changed.size === 0) return;
    const around = neighbourhood(this.store, ctx.source, [...pending.changed]);
    const settled = settle(around, ctx.resolve);
    for (const s of around) {
      const e = settled.get(s.id) ?? s.entry;
      if (!SHOWN.has(s.entry.kind)) continue;
      this.writeRow(ctx, s, e, pending);
    }
    for (const ack of pending.acks) this.ackEvents(ctx.source, ack);
  }

  /** An ack is a step in its message's life, at the ack's own time: who acknowledged it, and how far. */
  private ackEvents(source: string, ack: Entry): void {
    const atMs = ack.date ? Date.parse(ack.date) : this.now();
    for (const link of ack.links) {
      if (link.kind !== "acks") continue;
      const target = this.sql("SELECT e.key FROM entries e JOIN messages m ON m.key = e.key WHERE e.source = ? AND e.message_id = ? LIMIT 1").pluck().get(source, link.targetId);
      if (typeof target !== "string") continue;
      const by = ack.from ?? "someone";
      this.event(target, Number.isFinite(atMs) ? atMs : this.now(), "acked", `${ack.status} by ${by}`, null, { by, status: ack.status, ack: ack.messageId });
    }
  }

  private writeRow(ctx: EntrySourceContext, s: StoredEntry, settled: Entry, pending: Pending): void {
    const e = { ...settled, status: journalWord(settled.status, "unknown"), folder: journalWord(settled.folder, "files") };
    const before = this.sql("SELECT id, status, path, problems, thread_id AS threadId, due_ms AS dueMs, dead_letter_of AS heldKey FROM messages WHERE key = ?").get(s.key) as
      | { id: number; status: string; path: string | null; problems: string; threadId: string | null; dueMs: number | null; heldKey: string | null }
      | undefined;
    const facts = s.path ? pending.facts.get(s.path) : undefined;
    const changedHere = pending.changed.has(s.id);
    const problems = JSON.stringify(e.problems.map((p) => p.message));
    const dueMs = e.dueAt ? Date.parse(e.dueAt) : null;
    const nowMs = this.now();
    const heldKey = this.heldKey(ctx.source, s.key, e);
    if (before && !changedHere && before.status === e.status && before.problems === problems && before.threadId === e.threadKey && before.dueMs === dueMs && before.heldKey === heldKey) return;
    const atMs = Math.trunc(Math.min(facts?.mtimeMs ?? nowMs, nowMs));
    const seq = this.nextSeq();
    const row = {
      key: s.key, source: ctx.source, protocol: ctx.protocol, message_id: e.messageId, from_name: e.from, to_list: JSON.stringify(e.to),
      type: e.type, priority: e.priority, thread_id: e.threadKey, in_reply_to: e.inReplyTo, correlation_id: e.correlationId, date: e.date,
      agent: e.agent, folder: e.folder, path: s.path, last_path: s.path ?? before?.path ?? "", status: e.status, raw_status: e.rawStatus,
      retry_count: e.retryCount, problems, preview: previewOf(e.body), body: e.body, locator: e.locator, due_ms: dueMs,
      dead_letter_of: heldKey, task_id: taskIdOf(e.body), updated_ms: atMs, seq,
    };
    if (!before) {
      const sortMs = e.date ? Date.parse(e.date) : atMs;
      this.sql(
        `INSERT INTO messages (key, source, protocol, message_id, from_name, to_list, type, priority, thread_id, in_reply_to, correlation_id, date,
           sort_ms, agent, folder, path, last_path, status, raw_status, retry_count, problems, preview, body, locator, due_ms, dead_letter_of, task_id, size, mtime_ms, ino, updated_ms, seq)
         VALUES (@key, @source, @protocol, @message_id, @from_name, @to_list, @type, @priority, @thread_id, @in_reply_to, @correlation_id, @date,
           @sort_ms, @agent, @folder, @path, @last_path, @status, @raw_status, @retry_count, @problems, @preview, @body, @locator, @due_ms, @dead_letter_of, @task_id, @size, @mtime_ms, @ino, @updated_ms, @seq)`,
      ).run({ ...row, sort_ms: Number.isFinite(sortMs) ? sortMs : atMs, size: sizeOf(e, pending.raw.get(s.id)?.length), mtime_ms: facts ? Math.trunc(facts.mtimeMs) : null, ino: facts?.ino ?? null });
      this.event(s.key, atMs, "seen", `first seen in ${s.path ?? row.last_path}${e.locator ? ` (${e.locator})` : ""}, ${e.status}`, null, { path: s.path, locator: e.locator, status: e.status });
    } else {
      // Whatever else changed, the row keeps its stuck mark only while the entry is still due.
      this.sql(
        `UPDATE messages SET message_id = @message_id, from_name = @from_name, to_list = @to_list, type = @type, priority = @priority,
           thread_id = @thread_id, in_reply_to = @in_reply_to, correlation_id = @correlation_id, date = @date, agent = @agent, folder = @folder,
           path = @path, last_path = @last_path, status = @status, raw_status = @raw_status, retry_count = @retry_count, problems = @problems,
           preview = @preview, body = @body, locator = @locator, due_ms = @due_ms, dead_letter_of = @dead_letter_of, task_id = @task_id, updated_ms = @updated_ms, seq = @seq,
           stuck = CASE WHEN @due_ms IS NULL OR @path IS NULL THEN 0 ELSE stuck END
         WHERE key = @key`,
      ).run(row);
      const left = pending.left.get(s.id);
      if (left) this.event(s.key, nowMs, left.kind, left.detail, null, left.data);
      if (before.status !== e.status) this.event(s.key, left ? nowMs : atMs, "status", `${before.status} → ${e.status}`, before.status, { from: before.status, to: e.status });
    }
    const raw = pending.raw.get(s.id);
    if (raw) {
      this.sql(
        `INSERT INTO message_raw (id, raw, head_only) SELECT id, ?, ? FROM messages WHERE key = ?
         ON CONFLICT (id) DO UPDATE SET raw = excluded.raw, head_only = excluded.head_only`,
      ).run(raw, sizeOf(e, raw.length) > raw.length ? 1 : 0, s.key);
    }
    refreshThreadKey(this.db, s.key);
  }

  /** For an entry that holds another (a dead letter and its original): the held one's key, once it is journaled. */
  private heldKey(source: string, key: string, e: Entry): string | null {
    const held = e.links.find((l) => l.kind === "holds");
    if (!held) return null;
    const found = this.sql("SELECT key FROM entries WHERE source = ? AND message_id = ? AND key != ? ORDER BY path IS NULL, id LIMIT 1").pluck().get(source, held.targetId, key);
    return typeof found === "string" ? found : null;
  }

  private event(key: string, atMs: number, kind: string, detail: string, fromStatus: string | null, data: Record<string, unknown>): void {
    this.sql("INSERT INTO events (key, at_ms, kind, detail, from_status, data) VALUES (?, ?, ?, ?, ?, ?)").run(key, atMs, kind, detail, fromStatus, JSON.stringify(data));
  }

  /**
   * Entries past their due time (an ack not written, a request not answered) are stuck; one that
   * is no longer due stops being stuck when its row is written (writeRow). Reads only the due
   * entries' own index.
   */
  sweepDue(): number {
    const due = this.sql("SELECT key, due_ms FROM messages WHERE due_ms IS NOT NULL AND due_ms <= ? AND path IS NOT NULL AND stuck = 0").all(this.now()) as { key: string; due_ms: number }[];
    for (const r of due) {
      this.sql("UPDATE messages SET stuck = 1, seq = ? WHERE key = ?").run(this.nextSeq(), r.key);
      this.event(r.key, r.due_ms, "overdue", `not settled by ${new Date(r.due_ms).toISOString()}`, null, { dueAt: new Date(r.due_ms).toISOString() });
    }
    return due.length;
  }
}

export { journalWord, type DeletedFile, type EntryFileFacts, type EntryFileRead, type EntrySourceContext };
