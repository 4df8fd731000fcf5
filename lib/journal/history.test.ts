// Retention and full-text search over the journal.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseQuery } from "@/lib/query";
import { VOCABULARY } from "@/lib/protocols";
import { fileRecord } from "@/lib/testing/parsed";
import { openTempJournal, type TempJournal } from "@/lib/testing/temp-journal";
import type { Db } from "./db";
import { buildFullText, DEFAULT_AUTOMERGE, DEFAULT_HASHSIZE, fullTextReady } from "./fulltext";
import { queryHistory, queryPage, querySummary } from "./queries";
import type { JournalWriter } from "./writer";

let journal: TempJournal;
let db: Db;
let now: number;
let writer: JournalWriter;

beforeEach(() => {
  now = Date.parse("2026-11-20T00:00:00Z");
  journal = openTempJournal(() => now);
  ({ db, writer } = journal);
});
afterEach(() => journal.close());

const DAY = 86_400_000;
const keysOf = (q: string) => queryPage(db, parseQuery(q, VOCABULARY), 500, null).items.map((m) => m.key);

function completedAt(name: string, whenMs: number): string {
  const { key } = writer.record(fileRecord(`queue/leader/processed/${name}.mime`, { messageId: `<${name}@x>`, status: "delivered" }, { mtimeMs: 1, size: 1, ino: name.length }));
  now = whenMs;
  writer.markGone("ws-ignite", `queue/leader/processed/${name}.mime`);
  return key;
}

describe("retention", () => {
  it("prunes completed messages older than the age limit, with their history", () => {
    const base = now;
    const old = completedAt("old", base - 40 * DAY);
    const recent = completedAt("recent", base - 1 * DAY);
    now = base;
    expect(writer.prune(30 * DAY, 0)).toBe(1);
    expect(querySummary(db, old)).toBeNull();
    expect(queryHistory(db, old)).toEqual([]);
    expect(querySummary(db, recent)?.status).toBe("completed");
  });

  it("keeps only the newest completed messages beyond the count limit", () => {
    const base = now;
    const keys = ["a", "b", "c", "d"].map((n, i) => completedAt(n, base + i * 1000));
    expect(writer.prune(0, 2)).toBe(2);
    expect(keys.map((k) => querySummary(db, k) !== null)).toEqual([false, false, true, true]);
  });

  it("prunes by both limits at once, the oldest first, a batch per call", () => {
    const base = now;
    const keys = ["a", "b", "c", "d", "e"].map((n, i) => completedAt(n, base - (50 - i) * DAY));
    const left = () => keys.map((k) => querySummary(db, k) !== null);
    now = base;
    // All five are over the age limit (46 to 50 days old): the oldest go first, two per call.
    expect(writer.prune(30 * DAY, 1, 2)).toBe(2);
    expect(left()).toEqual([false, false, true, true, true]);
    expect(writer.prune(30 * DAY, 1, 2)).toBe(2);
    expect(writer.prune(30 * DAY, 1, 2)).toBe(1);
    expect(writer.prune(30 * DAY, 1, 2)).toBe(0);
    expect(left()).toEqual([false, false, false, false, false]);
  });

  it("by count, keeps the newest even when fewer are doomed by age", () => {
    const base = now;
    const keys = ["a", "b", "c"].map((n, i) => completedAt(n, base - (40 - i * 20) * DAY));
    now = base;
    // Only a (40 days) is over the age limit; the count limit dooms a and b.
    expect(writer.prune(30 * DAY, 1)).toBe(2);
    expect(keys.map((k) => querySummary(db, k) !== null)).toEqual([false, false, true]);
  });

  it("never prunes a message whose file is on disk, or a dead one", () => {
    writer.record(fileRecord("queue/leader/a.mime", { messageId: "<on-disk@x>" }));
    const dead = writer.record(fileRecord("queue/leader/processed/d.mime", { messageId: "<dead@x>", status: "processing" }, { mtimeMs: 2, size: 2, ino: 99 }));
    const letter = writer.record(fileRecord("queue/dead_letter/d_dlq.mime", { messageId: "<dl@x>", status: "dead" }, { mtimeMs: 3, size: 3, ino: 98 }));
    writer.linkDeadLetter(letter.key, dead.key, "after 3 retries");
    writer.markGone("ws-ignite", "queue/leader/processed/d.mime");
    now += 100 * DAY;
    expect(writer.prune(1, 1)).toBe(0);
    expect(keysOf("")).toHaveLength(3);
  });

  it("keeps a completed message while a dead letter on disk still holds it (archived after its requeue)", () => {
    const today = now;
    const held = completedAt("held", today - 400 * DAY);
    now = today;
    const letterPath = "archive/mailroom/queue/dead_letter/held_dlq.mime";
    const letter = writer.record({
      ...fileRecord(letterPath, { messageId: "<held-dl@x>", status: "discarded" }, { mtimeMs: 5, size: 5, ino: 77 }),
      placement: { agent: "dead_letter", folder: "archive" },
    });
    writer.linkDeadLetter(letter.key, held, "after 3 retries");
    expect(writer.prune(DAY, 0)).toBe(0);
    expect(querySummary(db, held)?.status).toBe("completed");
    writer.markGone("ws-ignite", letterPath);
    expect(writer.prune(DAY, 0)).toBe(1);
    expect(querySummary(db, held)).toBeNull();
  });

  it("does nothing when both limits are off", () => {
    completedAt("x", now - 400 * DAY);
    expect(writer.prune(0, 0)).toBe(0);
  });
});

describe("full-text search", () => {
  beforeEach(() => {
    writer.record(fileRecord("queue/a/x.mime", { messageId: "<1@x>", body: 'title: "README骨組み作成"\nnote: Install the CLI' }, { mtimeMs: 1, size: 1, ino: 1 }));
    writer.record(fileRecord("queue/a/y.mime", { messageId: "<2@x>", body: 'title: "インストール手順の執筆"' }, { mtimeMs: 2, size: 2, ino: 2 }));
  });

  it("matches words and phrases in any script once the index is built, case-insensitively", async () => {
    expect(fullTextReady(db)).toBe(false);
    await buildFullText(db, async () => undefined);
    expect(fullTextReady(db)).toBe(true);
    expect(keysOf("骨組み")).toHaveLength(1);
    expect(keysOf("install")).toHaveLength(1);
    expect(keysOf('"install the cli"')).toHaveLength(1);
    expect(keysOf("インストール -骨組み")).toHaveLength(1);
    expect(keysOf("nowhere")).toHaveLength(0);
    // Several terms are one MATCH: all of them in one body, not each in some body.
    expect(keysOf("README 作成 install")).toHaveLength(1);
    expect(keysOf("README インストール")).toHaveLength(0);
    expect(keysOf("骨組み -インストール 作成")).toHaveLength(1);
  });

  it("answers before the index exists and for terms under three characters", async () => {
    expect(keysOf("骨組み")).toHaveLength(1);
    await buildFullText(db, async () => undefined);
    expect(keysOf("執筆")).toHaveLength(1);
  });

  it("indexes a body rewritten while the index is being built once, so its old words stop matching", async () => {
    // One row per chunk: the rewrite lands after the first chunk and before the second.
    await buildFullText(db, async () => {
      if (keysOf("midway").length === 0) writer.record(fileRecord("queue/a/y.mime", { messageId: "<2@x>", body: "midway words" }, { mtimeMs: 5, size: 5, ino: 2 }));
    }, 1);
    expect(keysOf("midway")).toHaveLength(1);
    writer.record(fileRecord("queue/a/y.mime", { messageId: "<2@x>", body: "final words" }, { mtimeMs: 6, size: 6, ino: 2 }));
    expect(keysOf("midway")).toHaveLength(0);
    expect(keysOf("final")).toHaveLength(1);
  });

  it("merges segments and flushes terms as usual again after the build, and after a build that stopped part-way", async () => {
    const option = (k: string) => db.prepare("SELECT v FROM messages_fts_config WHERE k = ?").pluck().get(k);
    const options = () => [option("automerge") ?? DEFAULT_AUTOMERGE, option("hashsize") ?? DEFAULT_HASHSIZE];
    // No merging, and a bigger hash of pending terms, while it fills.
    const filling = [0, 8 * DEFAULT_HASHSIZE];
    const during: unknown[] = [];
    await expect(
      buildFullText(db, () => {
        during.push(options());
        return Promise.reject(new Error("ingest stopped"));
      }, 1),
    ).rejects.toThrow("ingest stopped");
    expect(during).toEqual([filling]);
    expect(options()).toEqual([DEFAULT_AUTOMERGE, DEFAULT_HASHSIZE]);
    expect(fullTextReady(db)).toBe(false);
    await buildFullText(db, async () => {
      during.push(options());
    });
    expect(during).toEqual([filling, filling]);
    expect(options()).toEqual([DEFAULT_AUTOMERGE, DEFAULT_HASHSIZE]);
    expect(keysOf("骨組み")).toHaveLength(1);
  });

  it("keeps the index current as messages change", async () => {
    await buildFullText(db, async () => undefined);
    writer.record(fileRecord("queue/a/z.mime", { messageId: "<3@x>", body: "brand new words" }, { mtimeMs: 3, size: 3, ino: 3 }));
    writer.record(fileRecord("queue/a/x.mime", { messageId: "<1@x>", body: "rewritten entirely" }, { mtimeMs: 9, size: 9, ino: 1 }));
    expect(keysOf("brand new")).toHaveLength(1);
    expect(keysOf("骨組み")).toHaveLength(0);
    expect(keysOf("rewritten")).toHaveLength(1);
  });
});

describe("the order of a message's history", () => {
  it("keeps a rewrite after the move seen before it, though the file's time is a tick earlier", () => {
    const { key } = writer.record(fileRecord("queue/leader/m.mime", { messageId: "<m@x>", status: "queued" }, { mtimeMs: now - 60_000, size: 1, ino: 7 }));
    // rename(2) keeps the file's time: the move is timed when it is seen.
    writer.record(fileRecord("queue/leader/processed/m.mime", { messageId: "<m@x>", status: "queued" }, { mtimeMs: now - 60_000, size: 1, ino: 7 }), key);
    // Rewritten right after, its time from the kernel's clock, 3 ms behind the one the move was timed by.
    writer.record(fileRecord("queue/leader/processed/m.mime", { messageId: "<m@x>", status: "delivered" }, { mtimeMs: now - 3, size: 2, ino: 7 }));
    expect(queryHistory(db, key).map((e) => e.kind)).toEqual(["seen", "moved", "status"]);
  });
});
