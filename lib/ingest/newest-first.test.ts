// A first scan loads newest first, in chunks each visible once committed, and claims no more than
// it has: every message sorted after the claim is already journaled.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateIgniteTree } from "@/lib/bench/generate";
import { openDb, type Db } from "@/lib/journal/db";
import { loadingNow } from "@/lib/journal/load-claim";
import { queryThreadOf, queryThreads } from "@/lib/journal/threads";
import { JournalWriter } from "@/lib/journal/writer";
import type { PageLoading } from "@/lib/model";
import type { FoundFile } from "@/lib/protocols";
import { openIgnite } from "@/lib/protocols/ignite";
import { ignite } from "@/lib/protocols/fixtures";
import { fileRecord } from "@/lib/testing/parsed";
import { tempDirs } from "@/lib/testing/temp-dirs";
import { FIRST_CHUNK_FILES, LoadFront, NAME_CLOCK_SLACK_MS, newestFirst, newestFirstLoad, orderNewestFirst, selectNewest } from "./newest-first";
import { scanSource } from "./scan";
import type { PreparedFile } from "./sync";

const { buildDeadLetter, buildMessage, markProcessing, messageFileName } = ignite;

const temp = tempDirs();

const found = (relPath: string): FoundFile => ({ relPath, kind: "file", size: 0, mtimeMs: 0, ino: 0 });
const timeOf = (relPath: string) => (/_(\d+)\.mime$/.exec(relPath) ? Number(/_(\d+)\.mime$/.exec(relPath)?.[1]) : null);

describe("newestFirst", () => {
  it("puts files whose name tells no time first, in listing order, then the rest newest first", () => {
    const files = ["a_100.mime", "odd.mime", "b_300.mime", "c_200.mime", "other.mime"].map(found);
    const ordered = newestFirst(files, timeOf);
    expect(ordered.files.map((f) => f.relPath)).toEqual(["odd.mime", "other.mime", "b_300.mime", "c_200.mime", "a_100.mime"]);
    expect(ordered.times).toEqual([null, null, 300, 200, 100]);
  });

  it("orders as a sort newest first would, equal times in listing order, whatever the mix", () => {
    let seed = 11;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const files = Array.from({ length: 3000 }, (_, i) => found(random(10) === 0 ? `odd_${i}.txt` : `m${i}_${1000 + random(400)}.mime`));
    const expected = files
      .map((f, i) => ({ f, i, t: timeOf(f.relPath) }))
      .sort((a, b) => (a.t === null || b.t === null ? (a.t === null ? (b.t === null ? a.i - b.i : -1) : 1) : b.t - a.t || a.i - b.i));
    const ordered = newestFirst(files, timeOf);
    expect(ordered.files).toEqual(expected.map((x) => x.f));
    expect(ordered.times).toEqual(expected.map((x) => x.t));
  });
});

describe("selectNewest", () => {
  it.each([0, 1, 7, 250, 2999, 3000, 4000])("picks the first %i of the newest-first order in one pass, and the one after them", (k) => {
    let seed = 5;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    // Few distinct times (many equal), some none.
    const times = Float64Array.from({ length: 3000 }, () => (random(20) === 0 ? NaN : 1000 + random(300)));
    const order = Array.from(orderNewestFirst(times));
    expect(selectNewest(times, k)).toEqual({ first: order.slice(0, k), next: order[k] ?? null });
  });
});

describe("newestFirstLoad", () => {
  it("makes the first chunk small, so the newest page is in soon, and the rest whole", () => {
    const files = Array.from({ length: 3000 }, (_, i) => found(`m_${1_000_000 + i}.mime`));
    const load = newestFirstLoad(files, timeOf, 2000);
    expect(load?.chunks.map((c) => c.length)).toEqual([FIRST_CHUNK_FILES, 2000, 3000 - 2000 - FIRST_CHUNK_FILES]);
    expect(load?.chunks[0]?.[0]?.relPath).toBe("m_1002999.mime");
    expect(newestFirstLoad(files, undefined, 2000)).toBeNull();
  });
});

describe("LoadFront", () => {
  const letter = (date: string): PreparedFile => {
    return { record: fileRecord("queue/dead_letter/x.mime", { date }), original: null };
  };

  it("claims down to the next chunk's newest name time (plus the clock slack) once every chunk before it is in", () => {
    const front = new LoadFront([40_000_000, 30_000_000, 20_000_000]);
    // The second chunk finishing first claims no more: the first may hold anything down to its newest.
    expect(front.chunkDone(1, [])).toBe(40_000_000 + NAME_CLOCK_SLACK_MS);
    expect(front.chunkDone(0, [])).toBe(20_000_000 + NAME_CLOCK_SLACK_MS);
    expect(front.chunkDone(2, [])).toBe(Number.MIN_SAFE_INTEGER);
  });

  it("claims nothing while files whose name tells no time are still to load", () => {
    const front = new LoadFront([null, null, 5_000_000]);
    expect(front.chunkDone(0, [])).toBeNull();
    expect(front.chunkDone(1, [])).toBe(5_000_000 + NAME_CLOCK_SLACK_MS);
  });

  it("holds the claim above a dead letter read but not yet journaled", () => {
    const front = new LoadFront([40_000_000, 1_000]);
    const at = Date.parse("2026-01-01T00:00:00Z");
    expect(front.chunkDone(0, [letter(new Date(at).toISOString())])).toBe(at);
  });
});

/**
 * A first scan of `messages` generated messages in chunks of `chunkFiles`, with the journal as a
 * poller saw it after each chunk (and what `look` saw in it then).
 */
async function scanWatched<T = undefined>(
  messages: number, chunkFiles: number, onWorkers = false, extra: (root: string) => void = () => undefined, look: (poller: Db) => T = () => undefined as T,
) {
  const root = path.join(temp("mailroom-newest-ws-"), "ws");
  const tree = generateIgniteTree(root, messages);
  extra(root);
  const file = path.join(temp("mailroom-newest-data-"), "journal.sqlite");
  const db = openDb(file);
  const poller = openDb(file);
  const seen: { keys: Set<string>; loading: PageLoading | undefined; looked: T }[] = [];
  class WatchedWriter extends JournalWriter {
    override setLoadClaim(id: string, ms: number | null): void {
      super.setLoadClaim(id, ms);
      const loading = loadingNow(poller);
      if (loading) seen.push({ keys: new Set(poller.prepare("SELECT key FROM messages").pluck().all() as string[]), loading, looked: look(poller) });
    }
  }
  const writer = new WatchedWriter(db);
  writer.upsertSource({ id: "s", protocol: "ignite", root, error: null });
  const reader = await openIgnite(root);
  if (!reader) throw new Error("not a workspace");
  await scanSource({ id: "s", protocol: "ignite", root, reader, error: null }, writer, { reportProgress: true, chunkFiles, workersMinFiles: onWorkers ? 0 : Infinity });
  const final = db.prepare("SELECT key, sort_ms, folder, dead_letter_of FROM messages ORDER BY sort_ms DESC, key DESC").all() as {
    key: string; sort_ms: number; folder: string; dead_letter_of: string | null;
  }[];
  return { tree, seen, final, db, close: () => (db.close(), poller.close()) };
}

describe("a first scan, newest first", () => {
  it("journals the newest files first, each chunk visible to a poller once committed, with how far it is", async () => {
    const { tree, seen, final, close } = await scanWatched(300, 50);
    const first = seen.find((s) => s.keys.size > 0);
    if (!first) throw new Error("no poll saw a chunk");
    // Dead letters (and the originals they hold) are journaled after the load.
    const loadedInChunks = final.filter((m) => m.folder !== "dead_letter" && !final.some((d) => d.dead_letter_of === m.key));
    expect(first.keys.size).toBe(50);
    const firstFifty = loadedInChunks.slice(0, 50).map((m) => m.key);
    expect([...first.keys].sort()).toEqual(firstFifty.sort());
    expect(first.loading).toMatchObject({ loaded: 50, total: tree.files });
    // The figures grow chunk by chunk, to every file.
    const figures = seen.slice(seen.indexOf(first)).map((s) => s.loading?.loaded);
    expect(figures).toEqual(figures.map((_, i) => Math.min(tree.files, 50 * (i + 1))));
    close();
  });

  it("has the newest page right after the first chunk, dead letters too", async () => {
    const { seen, final, close } = await scanWatched(300, 50, false, (root) => {
      // The newest file of all: a dead letter, whose message is seen only through it.
      const at = new Date("2026-06-01T00:00:00Z");
      const original = markProcessing(buildMessage({ from: "leader", to: ["ignitian_1"], type: "task_assignment", body: "task_id: t\n", date: at }), at);
      const name = messageFileName("task_assignment", at);
      fs.writeFileSync(
        path.join(root, ".ignite", "queue", "dead_letter", name.replace(/\.mime$/, `_dlq_${at.getTime() / 1000 + 5}.mime`)),
        buildDeadLetter(original, name, { retryCount: 3, maxRetries: 3, lastError: "timeout", movedAt: new Date(at.getTime() + 5000) }),
      );
    });
    const first = seen.find((s) => s.keys.size > 0);
    const newestPage = final.slice(0, 20).map((m) => m.key);
    expect(final[0]?.folder).toBe("dead_letter");
    expect(newestPage.filter((k) => !first?.keys.has(k))).toEqual([]);
    close();
  });

  it.each([false, true])("claims only what is there: every message sorted after the claim was journaled when the claim was read (on workers: %s)", async (onWorkers) => {
    const { seen, final, close } = await scanWatched(300, 50, onWorkers);
    const claimed = seen.filter((s) => s.loading?.completeAfter);
    expect(claimed.length).toBeGreaterThan(0);
    for (const { keys, loading } of claimed) {
      const after = Date.parse(loading?.completeAfter ?? "");
      expect(final.filter((m) => m.sort_ms > after && !keys.has(m.key))).toEqual([]);
    }
    close();
  });
});

describe("a first scan, newest first, settles each chunk", () => {
  /** A file of `text` under the generated tree, named by IGNITE's rule for its date. */
  const write = (root: string, dir: string, type: string, date: Date, text: string) =>
    fs.writeFileSync(path.join(root, ".ignite", "queue", dir, messageFileName(type, date)), text);
  // The generated tree's 300 messages are 30 s apart from 2026-01-01 00:00: `old` falls in a middle chunk, `newest` in the first.
  const old = new Date("2026-01-01T02:00:15Z");
  const newest = new Date("2026-06-01T00:00:00Z");

  it.each([false, true])("shows a reply newer than its parent in no thread until the parent's chunk is in, then in the parent's (on workers: %s)", async (onWorkers) => {
    const { seen, db, close } = await scanWatched(
      300, 50, onWorkers,
      (root) => {
        write(root, "leader", "task_assignment", old, buildMessage({ from: "strategist", to: ["leader"], type: "task_assignment", threadId: "thr_parent", messageId: "<parent@test>", body: "task_id: t_parent\n", date: old }));
        // No Thread-ID: it belongs to its parent's thread; its body's task_id would make it a group of its own.
        write(root, "strategist", "task_completed", newest, buildMessage({ from: "leader", to: ["strategist"], type: "task_completed", inReplyTo: "<parent@test>", messageId: "<reply@test>", body: "task_id: t_reply\n", date: newest }));
      },
      (poller) => ({
        parentIn: poller.prepare("SELECT 1 FROM messages WHERE message_id = '<parent@test>'").get() !== undefined,
        replyIn: poller.prepare("SELECT 1 FROM messages WHERE message_id = '<reply@test>'").get() !== undefined,
        replyThread: (() => {
          const key = poller.prepare("SELECT key FROM messages WHERE message_id = '<reply@test>'").pluck().get() as string | undefined;
          return key ? queryThreadOf(poller, key)?.id ?? null : null;
        })(),
        threads: queryThreads(poller, "", 1000).items.map((t) => t.id),
      }),
    );
    const loading = seen.filter((s) => s.loading?.loaded !== undefined && s.loading.loaded < s.loading.total);
    const replyOnly = loading.filter((s) => s.looked.replyIn && !s.looked.parentIn);
    const both = loading.filter((s) => s.looked.replyIn && s.looked.parentIn);
    // The two are chunks apart, and the load had more to do after the parent's (workers may commit
    // the rest before a poll is taken: there, only what each poll saw is checked).
    expect(replyOnly.length).toBeGreaterThan(0);
    if (!onWorkers) expect(both.length).toBeGreaterThan(0);
    for (const { looked } of replyOnly) {
      // Its thread is not known yet: no thread is stated, least of all one of its own.
      expect(looked.replyThread).toBeNull();
      expect(looked.threads).not.toContain("task-t_reply");
    }
    for (const { looked } of both) expect(looked.replyThread).toBe("thr_parent");
    expect(queryThreadOf(db, db.prepare("SELECT key FROM messages WHERE message_id = '<reply@test>'").pluck().get() as string)?.id).toBe("thr_parent");
    close();
  });

  it.each([false, true])("flags two files sharing a Message-ID once the second one's chunk is in, before the load ends (on workers: %s)", async (onWorkers) => {
    const { seen, db, close } = await scanWatched(
      300, 50, onWorkers,
      (root) => {
        for (const [dir, date] of [["leader", newest], ["leader/processed", old]] as const) {
          write(root, dir, "task_assignment", date, buildMessage({ from: "strategist", to: ["leader"], type: "task_assignment", messageId: "<twice@test>", body: "task_id: t\n", date: newest }));
        }
      },
      (poller) => poller.prepare("SELECT duplicate FROM messages WHERE message_id = '<twice@test>'").pluck().all() as number[],
    );
    const loading = seen.filter((s) => s.loading?.loaded !== undefined && s.loading.loaded < s.loading.total);
    // The newer file alone, then both, while the load goes on (see above for workers).
    expect(loading.some((s) => s.looked.length === 1)).toBe(true);
    const both = loading.filter((s) => s.looked.length === 2);
    if (!onWorkers) expect(both.length).toBeGreaterThan(0);
    for (const { looked } of both) expect(looked).toEqual([1, 1]);
    expect(db.prepare("SELECT count(*) FROM events WHERE kind = 'duplicate'").pluck().get()).toBe(2);
    close();
  });
});
