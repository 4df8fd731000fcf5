import "server-only";
// The journal side of wave 2: files that hold many entries (a shogun inbox, a JSONL channel). A
// message is (source, path, locator); an entry that vanishes from one file and shows up in another
// (shogun's archive) keeps its key and history; one that vanishes for good keeps its last status.
// Everything a protocol means (statuses, threads, due times, rule problems) comes from its adapter
// through the contract: this file names no protocol's folders, headers or statuses.
import type { Statement } from "better-sqlite3";
import type { Entry } from "@/lib/protocols/entries";
import type { Db } from "./db";
import { EntryMessages } from "./entry-messages";
import { journalWord, problemEntry, rawOf, type DeletedFile, type EntryFileFacts, type EntryFileRead, type EntrySourceContext, type JournaledFile } from "./entry-rows";
import { apartFromEarlier, EntryStore, type StoredEntry } from "./entry-store";
import { entryFiles, entryFilesAt } from "./files";
import { namingAbsent } from "./naming-absent";
import { preparedOnce } from "./prepared";
import { affectedBy, neighbourhood, settle } from "./entry-settle";
import { makeEntryKey, makeKey } from "./keys";

const pendingFor = (firstFill: boolean, holdAbsent: boolean): Pending => ({
  changed: new Set(), acks: [], arrived: new Set(), raw: new Map(), facts: new Map(), left: new Map(), firstFill, holdAbsent, written: new Map(), inserted: new Set(),
});

/** Entries shown as messages: acks only settle their message, logs are the source's log. */
const SHOWN = new Set(["message", "document"]);
interface Pending {
  changed: Set<number>;
  /** Acks read for the first time: each is a step in its message's history. */
  acks: { id: number; entry: Entry }[];
  /** Message ids of shown entries read for the first time: acks journaled before them (a newer file read first) are steps of theirs. */
  arrived: Set<string>;
  raw: Map<number, Buffer>;
  facts: Map<string, EntryFileFacts>;
  /** Entry id → how it left its file, for its history. */
  left: Map<number, { kind: "trimmed" | "gone" | "moved"; detail: string; data: Record<string, string | null> }>;
  /** A first fill (see apply). */
  firstFill: boolean;
  /** Problems about an absent entry are held back (see apply). */
  holdAbsent: boolean;
  /**
   * Entries as this batch wrote them, by id: settling takes them from here instead of reading them
   * back (a batch of appends settled its own 200 new entries by reading each again).
   */
  written: Map<number, StoredEntry>;
  /** Entries this batch inserted: their keys are new (newKey), so they have no message row to look up. */
  inserted: Set<number>;
}

export class EntryWriter {
  /** Each SQL text prepared once (see prepared.ts). */
  private readonly sql: (text: string) => Statement;
  private readonly store: EntryStore;
  private readonly messages: EntryMessages;
  /** Sources with problems about absent entries held back since takeHeld() last asked (see apply). */
  private readonly heldIn = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.store = new EntryStore(db);
    this.sql = preparedOnce(db);
    this.messages = new EntryMessages(db, this.sql, now);
  }


  private nextSeq(): number {
    return (this.sql("UPDATE meta SET value = value + 1 WHERE name = 'seq' RETURNING value").get() as { value: number }).value;
  }

  /** Whether the journal holds nothing of a source: no file read, no entry (not even one gone from its file). */
  isEmpty(source: string): boolean {
    return !this.sql("SELECT 1 FROM entry_files WHERE source = ? UNION ALL SELECT 1 FROM entries WHERE source = ? LIMIT 1").get(source, source);
  }

  /** How far each file of a source was read, and by which reader version, by path: every file (a page at a time, `pause()` between), or those `at`. */
  files = (source: string, pause: () => Promise<void>): Promise<Map<string, JournaledFile>> => entryFiles(this.db, source, pause);
  filesAt = (source: string, at: readonly string[]): Map<string, JournaledFile> => entryFilesAt(this.db, source, at);

  /**
   * Journal what a batch of files now holds, and the files gone from it, in one transaction: moves
   * between files of the batch are matched before anything counts as having left.
   *
   * `firstFill`: every batch of a source the journal held nothing of (isEmpty), each file read once,
   * whole or from its start. No entry can leave a file then, so none is gone, and an entry's earlier
   * self (its id seen at another path) could only be a present twin, which gets a row of its own
   * anyway: the per-entry lookups for those are skipped (a fifth of a first fill's journaling CPU).
   * The indexes stay live, unlike a bulk load's: set aside for 4 × 20,000 entries they saved 1.7 s
   * of inserting and cost 1.1 s to build again, and the set-aside ones are the whole journal's.
   *
   * `holdAbsent`: a load that reads the newest first and has not read everything yet may not have
   * reached the entry a problem says is absent (an answer's request, read after it): such problems
   * (EntryProblem.absent) are not written now; settleAbsent() settles them once the load is done.
   */
  apply(
    ctx: EntrySourceContext,
    reads: readonly EntryFileRead[],
    deleted: readonly DeletedFile[] = [],
    { firstFill = false, holdAbsent = false }: { firstFill?: boolean; holdAbsent?: boolean } = {},
  ): number {
    const pending = pendingFor(firstFill, holdAbsent);
    const run = this.db.transaction(() => {
      const leaving: StoredEntry[] = [];
      const touched = new Set<number>();
      for (const read of reads) leaving.push(...this.journalFile(ctx, read, pending, touched));
      // After the reads: a file read again from its start keeps the entries it still holds.
      const why = new Map(deleted.map((d) => [d.relPath, d.why]));
      for (const { relPath, why: gone, kept, ino } of deleted) {
        for (const s of this.store.inFile(ctx.source, relPath)) if (!touched.has(s.id) && !kept?.has(s.entry.locator)) leaving.push(s);
        if (gone === "deleted" && !reads.some((r) => r.relPath === relPath)) this.sql("DELETE FROM entry_files WHERE source = ? AND path = ?").run(ctx.source, relPath);
        if (ino !== undefined) this.sql("UPDATE entry_files SET ino = ? WHERE source = ? AND path = ?").run(ino, ctx.source, relPath);
      }
      for (const s of leaving) this.leave(ctx, s, why.get(s.path ?? "") ?? null, pending);
      this.settleAround(ctx, [...pending.changed], pending);
    });
    run();
    return pending.changed.size;
  }

  /** Whether a problem about an absent entry of the source was held back since the last call. */
  takeHeld(source: string): boolean {
    return this.heldIn.delete(source);
  }

  /** Entries of a source that name an id no entry of it has, each once, `batch` at a time (see naming-absent.ts). */
  namingAbsent(source: string, batch: number, pause: () => Promise<void>): AsyncGenerator<number[]> {
    return namingAbsent(this.sql, source, batch, pause);
  }

  /** Settle `ids` as the journal now stands, problems about absent entries included; only rows that change are written. */
  settleAbsent(ctx: EntrySourceContext, ids: readonly number[]): void {
    this.db.transaction(() => this.settleAround(ctx, ids, pendingFor(false, false)))();
  }

  private journalFile(ctx: EntrySourceContext, read: EntryFileRead, pending: Pending, touched: Set<number>): StoredEntry[] {
    const { relPath, facts } = read;
    pending.facts.set(relPath, facts);
    const agent = read.entries[0]?.agent ?? relPath.split("/").slice(-1)[0] ?? "";
    const folder = read.entries[0]?.folder ?? "";
    const entries = [...read.entries, ...read.problems.map((p, i) => problemEntry(p, read.from, i, agent, folder))];
    const here = new Set<string>();
    // Bytes appended since the last read hold only new values (see apartFromEarlier); not a re-read from the start.
    const appendedFrom = !read.whole && (read.readFrom ?? read.from) > 0 ? (read.readFrom ?? read.from) : null;
    // A file of many entries: which of this read's locators (or apartFromEarlier's for them) it holds is one
    // statement, and only those, and those this read placed, are looked up (98,689 lookups in four lanes'
    // 80,000 entries mostly found nothing). Every locator of the file made each batch of appends to a channel
    // of 70,000 read them all: 0.39 -> 0.68 CPU-s a 1,000 appends. A lone surrogate ("\ud800") is always looked
    // up: bound, it is not UTF-8 and reads back with U+FFFD, so only as bound is it found.
    const asked = entries.length > 1 ? JSON.stringify(entries.flatMap((e) => (e.span ? [e.locator, `${e.locator}@${e.span.start}`] : [e.locator]))) : null;
    const heldHere = asked === null ? null : new Set(this.sql("SELECT locator FROM entries WHERE source = ? AND path = ? AND locator IN (SELECT value FROM json_each(?))").pluck().all(ctx.source, relPath, asked) as string[]);
    const mayHold = heldHere && ((locator: string) => heldHere.has(locator) || here.has(locator) || !locator.isWellFormed());
    for (const found of entries) {
      const { id, changed, isNew, e } = this.journalEntry(ctx, relPath, found, pending, appendedFrom, !read.whole, mayHold);
      here.add(e.locator);
      touched.add(id);
      if (!changed) continue;
      pending.changed.add(id);
      if (e.kind === "ack" && isNew) pending.acks.push({ id, entry: e });
      if (SHOWN.has(e.kind) && isNew && e.messageId) pending.arrived.add(e.messageId);
      const raw = rawOf(e, read);
      if (raw) pending.raw.set(id, raw);
    }
    if (!read.tailOnly) this.sql(
      `INSERT INTO entry_files (source, path, size, mtime_ms, ino, consumed, head, reader) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (source, path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms, ino = excluded.ino,
         consumed = excluded.consumed, head = excluded.head, reader = excluded.reader`,
    ).run(ctx.source, relPath, facts.size, Math.trunc(facts.mtimeMs), facts.ino, facts.consumed, facts.head, ctx.readerVersion ?? 0);
    // Only a whole read knows what the file no longer holds (an appended read saw just the new bytes);
    // a first fill's file held nothing before this read.
    return read.whole && !read.unparsed && !pending.firstFill ? this.store.inFile(ctx.source, relPath).filter((s) => !here.has(s.entry.locator)) : [];
  }

  /** The entry's id, whether it changed, whether it was never journaled before, and the entry as journaled. */
  /** `stream`: the file only grows (not read whole), so an entry never moves into it (see keepsItsEntries). `mayHold`: false for a locator the file cannot hold (see journalFile). */
  private journalEntry(
    ctx: EntrySourceContext, relPath: string, found: Entry, pending: Pending, appendedFrom: number | null, stream: boolean, mayHold: ((locator: string) => boolean) | null,
  ): { id: number; changed: boolean; isNew: boolean; e: Entry } {
    const wrote = (s: StoredEntry | null) => s && pending.written.set(s.id, s);
    const at = (locator: string) => (mayHold && !mayHold(locator) ? null : this.store.at(ctx.source, relPath, locator));
    const first = at(found.locator);
    const e = (first && appendedFrom !== null ? apartFromEarlier(first, found, appendedFrom) : null) ?? found;
    const stored = e === found ? first : at(e.locator);
    if (stored) return { id: stored.id, changed: wrote(this.store.update(stored, relPath, e)) !== null, isNew: false, e };
    // Back from where it went (a move seen in two batches), or still in the file it is leaving; never into a stream.
    const earlier = e.messageId && !pending.firstFill && !stream ? this.store.earlier(ctx.source, e.messageId, e.kind, relPath) : null;
    if (earlier && earlier.path === null) {
      // Where it was last seen: back in the same file, or a move seen across two scans (trimmed from an inbox, then found in its archive).
      const last = this.sql("SELECT last_path FROM messages WHERE key = ?").pluck().get(earlier.key) as string | undefined;
      const from = last && last !== relPath ? last : null;
      const detail = from ? `moved from ${from} to ${relPath}` : `back, in ${relPath}`;
      pending.left.set(earlier.id, { kind: "moved", detail, data: { from, to: relPath, fromFolder: earlier.entry.folder, toFolder: e.folder } });
      wrote(this.store.update(earlier, relPath, e));
      return { id: earlier.id, changed: true, isNew: false, e };
    }
    const inserted = this.store.insert(this.newKey(ctx.source, relPath, e), ctx.source, relPath, e);
    wrote(inserted);
    pending.inserted.add(inserted.id);
    return { id: inserted.id, changed: true, isNew: true, e };
  }

  /**
   * An entry no longer in its file. With a twin (same id and kind) in another file it moved there:
   * the older key goes on at the twin's place, and the twin's own row (its first sight) gives way.
   */
  private leave(ctx: EntrySourceContext, s: StoredEntry, fileGone: DeletedFile["why"] | null, pending: Pending): void {
    const from = s.path ?? "";
    const twin = s.entry.messageId && !ctx.keepsItsEntries?.(from) ? this.store.twinElsewhere(ctx.source, s.entry.messageId, s.entry.kind, from) : null;
    if (twin && twin.path !== null && !ctx.keepsItsEntries?.(twin.path)) {
      const raw = pending.raw.get(twin.id);
      const moved = { ...twin.entry, data: this.store.dataOf(twin.id) };
      this.dropRow(twin.key);
      this.store.remove(twin.id);
      pending.changed.delete(twin.id);
      pending.written.delete(twin.id);
      const now = this.store.update(s, twin.path, moved);
      if (now) pending.written.set(s.id, now);
      if (raw) pending.raw.set(s.id, raw);
      pending.changed.add(s.id);
      pending.left.set(s.id, { kind: "moved", detail: `moved from ${from} to ${twin.path}`, data: { from, to: twin.path, fromFolder: s.entry.folder, toFolder: twin.entry.folder } });
      return;
    }
    this.store.markGone(s.id);
    pending.written.delete(s.id);
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
      const key = e.span ? makeEntryKey(source, relPath, e.locator, e.span.start, e.messageId, attempt) : makeKey(source, origin, e.messageId, attempt);
      if (!exists.get(key, key)) return key;
    }
  }

  /** Settle what the entries `seeds` (the changed ones) touch, then write each shown entry's message row and history. */
  private settleAround(ctx: EntrySourceContext, seeds: readonly number[], pending: Pending): void {
    if (seeds.length === 0) return;
    const around = neighbourhood(this.store, ctx.source, seeds, pending.written, ctx.anyReferrer);
    const { views: settled, held } = settle(around, ctx.resolve, pending.holdAbsent);
    if (held) this.heldIn.add(ctx.source);
    const affected = affectedBy(around, seeds);
    const shown = around.filter((s) => SHOWN.has(s.entry.kind) && affected.has(s.id));
    const before = this.messages.before(shown.flatMap((s) => (pending.inserted.has(s.id) ? [] : [s.key])));
    const writes = shown.flatMap((s) => {
      const w = this.messages.plan(ctx, s, settled.get(s.id) ?? s.entry, pending, before.get(s.key));
      return w ? [w] : [];
    });
    this.messages.write(writes, pending);
    for (const ack of pending.acks) this.messages.ackEvents(ctx.source, ack.entry);
    this.earlierAckEvents(ctx.source, pending);
  }

  /**
   * Acks journaled in an earlier batch than the message they acknowledge: a first scan reads the
   * newest files first, and an ack's file is written after its message's. Their steps are added
   * as the message arrives (an ack new in this batch has had its own above).
   */
  private earlierAckEvents(source: string, pending: Pending): void {
    if (pending.arrived.size === 0) return;
    const own = new Set(pending.acks.map((a) => a.id));
    const acks = this.store.byId(this.store.referring(source, [...pending.arrived]), pending.written).filter((s) => s.entry.kind === "ack" && !own.has(s.id));
    for (const ack of acks) this.messages.ackEvents(source, ack.entry, pending.arrived);
  }

  /**
   * Entries past their due time (an ack not written, a request not answered) are stuck; one that
   * is no longer due stops being stuck when its row is written (entry-messages.ts). Reads only the
   * due entries' own index. One transaction: each row's three writes committed on their own made a
   * sweep of 17,000 overdue requests 51,000 commits (95 s of a 143 s first ingest of a 100 MB channel).
   */
  sweepDue(): number {
    const due = this.sql("SELECT key, due_ms FROM messages WHERE due_ms IS NOT NULL AND due_ms <= ? AND path IS NOT NULL AND stuck = 0").all(this.now()) as { key: string; due_ms: number }[];
    if (due.length === 0) return 0;
    this.db.transaction(() => {
      for (const r of due) {
        this.sql("UPDATE messages SET stuck = 1, seq = ? WHERE key = ?").run(this.nextSeq(), r.key);
        this.messages.event(r.key, r.due_ms, "overdue", `not settled by ${new Date(r.due_ms).toISOString()}`, null, { dueAt: new Date(r.due_ms).toISOString() });
      }
    })();
    return due.length;
  }
}

export { journalWord, type DeletedFile, type EntryFileFacts, type EntryFileRead, type EntrySourceContext, type JournaledFile };
