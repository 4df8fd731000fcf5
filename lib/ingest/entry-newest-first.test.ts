// An entry source's first scan loads newest first (by mtime, across every entry source), a commit
// at a time, and claims no more than it has: at every commit, each message sorted after the claim
// is journaled as it will be at the end. A scan stopped between commits is finished by the next
// one, with exactly the rows of a scan never stopped.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { generateIgniteYaml, generateKicklang } from "@/lib/bench/generate-wave2";
import type { Db } from "@/lib/journal/db";
import { EntryWriter } from "@/lib/journal/entry-writer";
import { loadingNow } from "@/lib/journal/load-claim";
import { closeJournals, openJournal, type Journal } from "@/lib/journal/store";
import { copyFixture, fixturePath } from "@/lib/testing/fixtures";
import { tempDirs } from "@/lib/testing/temp-dirs";
import { BATCH_ENTRIES, FIRST_BATCH_ENTRIES } from "./entry-batch";
import { locate, TAIL_BYTES } from "./entry-files";
import { EntryIngest, type BatchLimits, type EntrySource } from "./entry-ingest";
import { EntrySources } from "./entry-sources";
import { discoverSources } from "./sources";

const temp = tempDirs();
const NOW = Date.parse("2026-11-26T12:00:00Z");
/** A commit per file, and a channel's tail first from 256 bytes (every fixture channel): every step of the order is seen. */
const ONE_FILE: BatchLimits = { first: 1, rest: 1, tailBytes: 256 };
/** One commit, no tails: the journal as read in one go. */
const AT_ONCE: BatchLimits = { first: 1_000_000, rest: 1_000_000, tailBytes: Infinity };

function journalIn(): Journal {
  return openJournal(path.join(temp("mailroom-entrynew-data-"), "journal.db"));
}

async function entrySourcesOf(root: string): Promise<EntrySource[]> {
  return (await discoverSources([root])).flatMap((s) => (s.entries ? [s.entries] : []));
}

/**
 * Give each file the mtime its writer would have left: its newest entry's date (git keeps no
 * mtimes; a copy's are all now). Files with no dated entry keep theirs.
 */
async function restoreEntryMtimes(root: string): Promise<void> {
  const journal = journalIn();
  const sources = await entrySourcesOf(root);
  const ingest = new EntryIngest(journal.db, () => NOW);
  for (const s of sources) await ingest.scan(s);
  const rows = journal.db.prepare("SELECT source, path, entry FROM entries WHERE path IS NOT NULL").all() as { source: string; path: string; entry: string }[];
  const newest = new Map<string, number>();
  for (const r of rows) {
    const date = Date.parse((JSON.parse(r.entry) as { date: string | null }).date ?? "");
    const id = `${r.source}\n${r.path}`;
    if (Number.isFinite(date)) newest.set(id, Math.max(newest.get(id) ?? -Infinity, date));
  }
  for (const [id, ms] of newest) {
    const [sourceId, relPath] = id.split("\n") as [string, string];
    const source = sources.find((s) => s.id === sourceId)!;
    const { base, rel } = locate(source.layout, relPath);
    fs.utimesSync(path.join(base, rel), ms / 1000, ms / 1000);
  }
  closeJournals();
}

/** Every row a reader or a later scan sees, but the change counter. */
function rowsOf(db: Db) {
  return {
    messages: db.prepare("SELECT * FROM messages ORDER BY key").all().map((r) => ({ ...(r as object), id: undefined, seq: undefined })),
    entries: db.prepare("SELECT key, source, path, locator, kind, message_id, entry, data FROM entries ORDER BY key").all(),
    files: db.prepare("SELECT * FROM entry_files ORDER BY source, path").all(),
    events: db.prepare("SELECT key, at_ms, kind, detail, from_status, data FROM events ORDER BY key, at_ms, kind, detail").all(),
  };
}

interface Shown {
  key: string;
  sort_ms: number;
  status: string;
  path: string | null;
}
/** The timeline's newest page (its keys), as it stands in `db`. */
const page = (db: Db) => JSON.stringify(db.prepare("SELECT key FROM messages ORDER BY sort_ms DESC, key DESC LIMIT 100").pluck().all());
const shown = (db: Db) => db.prepare("SELECT key, sort_ms, status, path FROM messages").all() as Shown[];

/** A first scan of every entry source of `root` through EntrySources (as ingest runs it), `atCommit` after each commit. */
async function firstScan(root: string, journal: Journal, atCommit: () => void, limits = ONE_FILE, stopAfter = Infinity) {
  const all = await discoverSources([root]);
  for (const s of all) journal.writer.upsertSource({ id: s.id, protocol: s.protocol, root: s.root, error: null });
  const sources = new EntrySources(journal, {}, { limits, now: () => NOW });
  sources.adopt(all);
  // A pause is also a yield every 20 ms of reading (YIELD_AFTER_MS), more of them on a loaded
  // machine: only a pause after a transaction of the writer's counts as a commit. Not one after any
  // row changed: the load's progress, written just after a commit's own pause, made the next yield
  // a commit too (the stopped scan below counted 3 of its 2 on a busy CI machine).
  const apply = vi.spyOn(EntryWriter.prototype, "apply");
  const settle = vi.spyOn(EntryWriter.prototype, "settleAbsent");
  const transactions = () => apply.mock.calls.length + settle.mock.calls.length;
  let commits = 0;
  let countedAt = 0;
  const pause = async () => {
    if (transactions() === countedAt) return;
    countedAt = transactions();
    commits++;
    atCommit();
  };
  try {
    await sources.scanAll(pause, () => commits >= stopAfter, true);
  } finally {
    apply.mockRestore();
    settle.mockRestore();
  }
  return commits;
}

describe.each(["ignite-yaml", "shogun", "workflow", "kicklang"])("an entry source's first scan, newest first: %s", (protocol) => {
  it("journals the newest first, and never claims a message it has not journaled as it will end", async () => {
    const root = copyFixture(protocol);
    try {
      await restoreEntryMtimes(root);
      const whole = journalIn();
      await firstScan(root, whole, () => {}, AT_ONCE);
      const final = new Map(shown(whole.db).map((m) => [m.key, m]));
      const newest = [...final.values()].sort((a, b) => b.sort_ms - a.sort_ms)[0]!;

      const journal = journalIn();
      const claims: (string | null)[] = [];
      const held: { messages: number; newest: boolean }[] = [];
      const commits = await firstScan(root, journal, () => {
        const now = new Map(shown(journal.db).map((m) => [m.key, m]));
        held.push({ messages: now.size, newest: now.has(newest.key) });
        const after = loadingNow(journal.db)?.completeAfter ?? null;
        claims.push(after);
        if (after === null) return;
        // Every message sorted after the claim is in, and shown as it will be at the end.
        const above = [...final.values()].filter((m) => m.sort_ms > Date.parse(after));
        expect(above.map((m) => now.get(m.key))).toEqual(above);
      });
      expect(commits).toBeGreaterThan(2);
      // In with the first commit that journaled any message (the files before it hold none).
      expect(held.find((h) => h.messages > 0)?.newest).toBe(true);
      // A real claim (a time, not "all in") before the last commit, so the checks above were made.
      expect(claims.slice(0, -1).some((c) => c !== null && Date.parse(c) > 0)).toBe(true);
      // Claims only grow stronger, and cover everything at the end.
      const ms = claims.map((c) => (c === null ? Infinity : Date.parse(c)));
      expect(ms).toEqual([...ms].sort((a, b) => b - a));
      expect(loadingNow(journal.db)).toBeUndefined();
      expect(rowsOf(journal.db).messages.length).toBe(final.size);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it("stopped between commits, is finished by the next start's scan with exactly the rows of one never stopped", async () => {
    const root = copyFixture(protocol);
    try {
      await restoreEntryMtimes(root);
      const whole = journalIn();
      await firstScan(root, whole, () => {});
      const file = path.join(temp("mailroom-entrynew-stopped-"), "journal.db");
      const stopped = openJournal(file);
      expect(await firstScan(root, stopped, () => {}, ONE_FILE, 2)).toBe(2);
      // Not level with the tree: still loading, as the next start will see it.
      expect(loadingNow(stopped.db)).toBeDefined();
      expect(rowsOf(stopped.db).messages.length).toBeLessThan(rowsOf(whole.db).messages.length);
      closeJournals();
      const restarted = openJournal(file);
      await firstScan(root, restarted, () => {});
      expect(loadingNow(restarted.db)).toBeUndefined();
      expect(rowsOf(restarted.db)).toEqual(rowsOf(openJournal(whole.file).db));
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

/** A response to no request, appended to a channel. (A workflow's ack of no message is such a problem too, but acks are no rows.) */
const ANSWER_TO_NOTHING = {
  id: "answer-to-nothing", timestamp: "2025-12-16T15:47:00.000Z", sender: "WePlan", receiver: "Orchestrator", type: "Info",
  channel: "⫻report/status", content: "⫻report/status:task_009/001\nDone", correlation_id: "no-such-request",
};

describe("a problem about an absent entry, in a first scan newest first (KickLang: a response to a request not read yet)", () => {
  const problems = (db: Db) => new Map((db.prepare("SELECT key, problems FROM messages").all() as { key: string; problems: string }[]).map((r) => [r.key, r.problems]));

  it("is not shown while the entry may still be read, and is shown once the scan has read everything and it never came", async () => {
    const root = copyFixture("kicklang");
    try {
      fs.appendFileSync(path.join(root, ".kicklang/channels/report/status.jsonl"), `${JSON.stringify(ANSWER_TO_NOTHING)}\n`);
      await restoreEntryMtimes(root);
      const whole = journalIn();
      await firstScan(root, whole, () => {}, AT_ONCE);
      const final = problems(whole.db);
      // The end shows the problem of the line whose entry is in no file.
      expect([...final.values()].some((p) => p.includes("no-such-request names no envelope"))).toBe(true);

      const journal = journalIn();
      const wrong: string[] = [];
      let commits = 0;
      await firstScan(root, journal, () => {
        commits++;
        // Each message shows only problems it will still have at the end.
        for (const [key, shown] of problems(journal.db)) {
          const end = JSON.parse(final.get(key) ?? "[]") as string[];
          for (const p of JSON.parse(shown) as string[]) if (!end.includes(p)) wrong.push(`commit ${commits}: ${key}: ${p}`);
        }
      });
      expect(commits).toBeGreaterThan(2);
      expect(wrong).toEqual([]);
      expect(problems(journal.db)).toEqual(final);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("the loading status of a tree mixing IGNITE v3 and entry sources", () => {
  it("counts every source's files, and claims only what every source's claim holds (the weakest)", async () => {
    const root = copyFixture("workflow");
    try {
      fs.cpSync(fixturePath("ignite", "workspace"), root, { recursive: true });
      await restoreEntryMtimes(root);
      const journal = journalIn();
      const ignite = (await discoverSources([root])).find((s) => s.reader !== null)!;
      const entry = (await entrySourcesOf(root))[0]!;
      const entryClaim = () => journal.db.prepare("SELECT value FROM meta WHERE name = ?").pluck().get(`complete_after:${entry.id}`) as number | undefined;
      const iso = (ms: number) => new Date(ms).toISOString();
      // The IGNITE source mid-load, its claim somewhere among the workflow's files' times.
      const igniteClaim = Date.parse("2026-01-25T14:31:00Z");
      const seen: { loaded: number; total: number; completeAfter: string | null; entry: number | undefined }[] = [];
      await firstScan(root, journal, () => {
        if (seen.length === 0) {
          journal.writer.setProgress(ignite.id, 3, 10, false);
          journal.writer.setLoadClaim(ignite.id, igniteClaim);
        }
        seen.push({ ...loadingNow(journal.db)!, entry: entryClaim() });
      });
      const files = (await new EntryIngest(journal.db).plan(entry)).files.length;
      for (const s of seen) {
        expect(s.total).toBe(10 + files);
        expect(s.completeAfter).toBe(s.entry === undefined ? null : iso(Math.max(igniteClaim, s.entry)));
      }
      expect(seen.map((s) => s.loaded)).toEqual([...seen.map((s) => s.loaded)].sort((a, b) => a - b));
      // Both sides of the weakest: the workflow's claim first, then IGNITE's.
      expect(seen.some((s) => s.entry !== undefined && s.entry > igniteClaim)).toBe(true);
      expect(seen.some((s) => s.entry !== undefined && s.entry < igniteClaim)).toBe(true);
      // The entry source is done; IGNITE's claim alone is left.
      expect(loadingNow(journal.db)).toEqual({ loaded: 3, total: 10, completeAfter: iso(igniteClaim) });
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("an ack journaled before the message it acknowledges (its file is newer)", () => {
  it("is still a step in that message's history", async () => {
    const root = copyFixture("workflow");
    try {
      await restoreEntryMtimes(root);
      const acked = (db: Db) => db.prepare("SELECT key, at_ms, detail, data FROM events WHERE kind = 'acked' ORDER BY key, at_ms, detail").all();
      const whole = journalIn();
      await firstScan(root, whole, () => {}, AT_ONCE);
      expect(acked(whole.db).length).toBeGreaterThan(0);
      const journal = journalIn();
      await firstScan(root, journal, () => {});
      expect(acked(journal.db)).toEqual(acked(whole.db));
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("a big channel never read before: its newest part first", () => {
  /** A KickLang tree of `n` envelopes in three channels, each with the mtime of its newest line. */
  function channels(n: number): string {
    const root = temp("mailroom-entrynew-kick-");
    generateKicklang(root, n);
    return root;
  }
  const TAIL: BatchLimits = { first: 50, rest: 50, tailBytes: 16 * 1024 };

  it("journals the channels' tails in the first commit, claims down to the oldest tail line, and ends as a read from the start", async () => {
    const root = channels(3000);
    const whole = journalIn();
    await firstScan(root, whole, () => {}, AT_ONCE);
    const final = new Map(shown(whole.db).map((m) => [m.key, m]));
    const newest = [...final.values()].sort((a, b) => b.sort_ms - a.sort_ms).slice(0, 20);
    const journal = journalIn();
    const commits: { claim: number | null; files: number; newest: boolean; messages: number }[] = [];
    await firstScan(root, journal, () => {
      const now = new Map(shown(journal.db).map((m) => [m.key, m]));
      const after = loadingNow(journal.db)?.completeAfter ?? null;
      const commit = { claim: after === null ? null : Date.parse(after), files: rowsOf(journal.db).files.length, newest: newest.every((m) => now.has(m.key)), messages: now.size };
      // A pause that follows no commit (a load also pauses every 20 ms while it reads) is not one more.
      if (JSON.stringify(commit) !== JSON.stringify(commits[commits.length - 1])) commits.push(commit);
      if (after === null) return;
      const above = [...final.values()].filter((m) => m.sort_ms > Date.parse(after));
      expect(above.map((m) => now.get(m.key))).toEqual(above);
    }, TAIL);
    // The newest are in from the channels' tails, before any channel is recorded as read (its start is not in).
    expect(commits.find((c) => c.newest)?.files).toBe(0);
    expect(commits.findIndex((c) => c.newest)).toBeLessThanOrEqual(3);
    // A real claim, below the newest channel's time, before any channel is in whole.
    const mtimes = fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => fs.statSync(path.join(d.parentPath, d.name)).mtimeMs);
    expect(commits.some((c) => c.files === 0 && c.claim !== null && c.claim < Math.min(...mtimes))).toBe(true);
    // The same messages, entries and read facts as one read of every file from its start; but when
    // a row was last written (a row settled by another file's entry is written at that commit).
    const withoutUpdated = (db: Db) => {
      const { messages, entries, files } = rowsOf(db);
      return { messages: messages.map((m) => ({ ...m, updated_ms: undefined })), entries, files };
    };
    expect(withoutUpdated(journal.db)).toEqual(withoutUpdated(whole.db));
  });

  it("stopped after its tail, is read whole by the next start, with the rows of a scan never stopped", async () => {
    const root = channels(3000);
    const whole = journalIn();
    await firstScan(root, whole, () => {}, TAIL);
    const file = path.join(temp("mailroom-entrynew-stopped-"), "journal.db");
    await firstScan(root, openJournal(file), () => {}, TAIL, 1);
    expect(rowsOf(openJournal(file).db).files).toEqual([]);
    closeJournals();
    const restarted = openJournal(file);
    await firstScan(root, restarted, () => {}, TAIL);
    expect(rowsOf(restarted.db)).toEqual(rowsOf(openJournal(whole.file).db));
  });

  it("leaves room in the first commit for the other sources' newest files: the newest page is in with it", async () => {
    // As the mixed bench has them: three KickLang channels, and IGNITE v2 messages of the same times.
    const root = channels(3000);
    generateIgniteYaml(root, 3000);
    const whole = journalIn();
    await firstScan(root, whole, () => {}, AT_ONCE);
    const newestPage = page(whole.db);
    const journal = journalIn();
    // Each commit reports each source's claim (two sources), once more before the first.
    const claims = vi.spyOn(journal.writer, "setLoadClaim");
    let rightAfterFirstCommit: boolean | null = null;
    await firstScan(root, journal, () => {
      if (rightAfterFirstCommit === null && claims.mock.calls.length === 4) rightAfterFirstCommit = page(journal.db) === newestPage;
    }, { first: FIRST_BATCH_ENTRIES, rest: BATCH_ENTRIES, tailBytes: TAIL_BYTES });
    // 128 KB tails (1,300 entries) filled the first commit alone: the page was right only with the second.
    expect(rightAfterFirstCommit).toBe(true);
  });

  it("ends a start's first turn with the newest page in, before it reads any channel from its start", async () => {
    const root = channels(3000);
    generateIgniteYaml(root, 3000);
    const whole = journalIn();
    await firstScan(root, whole, () => {}, AT_ONCE);
    const journal = journalIn();
    const all = await discoverSources([root]);
    for (const s of all) journal.writer.upsertSource({ id: s.id, protocol: s.protocol, root: s.root, error: null });
    const sources = new EntrySources(journal, {}, { now: () => NOW });
    sources.adopt(all);
    await sources.scanAll(async () => {}, () => false, true, true);
    expect(page(journal.db)).toBe(page(whole.db));
    // Only the channels' tails (about 110 envelopes each): a chunk of a channel's start is ~900.
    const kicklang = journal.db.prepare("SELECT count(*) FROM messages m JOIN sources s ON s.id = m.source WHERE s.protocol = 'kicklang'").pluck().get() as number;
    expect(kicklang).toBeLessThan(500);
  });
});
