// Files written to stall or exhaust the server (alias bombs, deep nesting, huge header blocks,
// reply cycles, nested dead letters): a first scan finishes, lists each with the limit it hit,
// and the detail view and threads read them within the same bounds.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDb, type Db } from "@/lib/journal/db";
import { JournalWriter } from "@/lib/journal/writer";
import { buildFullText, fullTextReady } from "@/lib/journal/fulltext";
import { queryThread, queryThreadOf, queryThreads } from "@/lib/journal/threads";
import { igniteAdapter, openIgnite } from "@/lib/protocols/ignite";
import { copyFixture } from "@/lib/testing/fixtures";
import { writeHostileFiles, type HostileFile } from "@/lib/testing/hostile-files";
import { scanSource } from "./scan";
import type { ReadableSource } from "./sync";

let ws: string;
let data: string;
let db: Db;
let source: ReadableSource;
let files: HostileFile[];

interface Row { key: string; status: string; problems: string; message_id: string | null }
const row = (p: string) => db.prepare("SELECT key, status, problems, message_id FROM messages WHERE path = ?").get(p) as Row | undefined;
const keyOf = (mid: string) => db.prepare("SELECT key FROM messages WHERE message_id = ?").pluck().get(mid) as string | undefined;

beforeEach(async () => {
  ws = copyFixture("ignite");
  files = writeHostileFiles(ws);
  data = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-hostile-"));
  db = openDb(path.join(data, "journal.sqlite"));
  const reader = await openIgnite(ws);
  if (!reader) throw new Error("fixture is not a workspace");
  source = { id: "s", protocol: "ignite", root: ws, reader, error: null };
});
afterEach(() => {
  db.close();
  fs.rmSync(ws, { recursive: true, force: true });
  fs.rmSync(data, { recursive: true, force: true });
});

function expectEachListed(): void {
  for (const f of files) {
    const r = row(f.relPath);
    expect(r, f.relPath).toBeDefined();
    const problems = JSON.parse(r?.problems ?? "[]") as string[];
    if (f.problem === null) expect(problems, f.relPath).toEqual([]);
    else expect(problems, f.relPath).toContain(f.problem);
  }
}

describe("a workspace of hostile files", () => {
  it("is scanned on the main thread to the end, each file listed with the limit it hit", async () => {
    const scan = await scanSource(source, new JournalWriter(db), { reportProgress: false, workersMinFiles: Infinity });
    expect(scan.load?.workers).toBe(0);
    expectEachListed();
    // The header block over a limit makes the file unreadable as a message; a body over one does not.
    expect(row(".ignite/queue/architect/many_headers.mime")?.status).toBe("invalid");
    expect(row(".ignite/queue/architect/alias_nested.mime")?.status).toBe("queued");
  });

  it("is indexed for full-text search in chunks of bounded bytes, every body once", async () => {
    await scanSource(source, new JournalWriter(db), { reportProgress: false, workersMinFiles: Infinity });
    let chunks = 0;
    await buildFullText(db, async () => void chunks++);
    expect(fullTextReady(db)).toBe(true);
    // A 4 MB body and several of 0.25-0.6 MB: by rows alone (2,000 a chunk) this is one chunk.
    expect(chunks).toBeGreaterThan(2);
    const count = (sql: string) => db.prepare(sql).pluck().get() as number;
    expect(count("SELECT count(*) FROM messages_fts_docsize")).toBe(count("SELECT count(*) FROM messages"));
    expect(count(`SELECT count(*) FROM messages_fts WHERE messages_fts MATCH '"lol"'`)).toBe(1);
  });

  it("is scanned on worker threads with the same outcome", async () => {
    const scan = await scanSource(source, new JournalWriter(db), { reportProgress: false, workersMinFiles: 1 });
    expect(scan.load?.workers).toBeGreaterThan(0);
    expectEachListed();
  }, 60_000);

  it("is read by the detail view within the same limits (no data past a limit; headers cut at one)", async () => {
    for (const f of files) {
      const detail = await igniteAdapter.describe(Buffer.from(f.text));
      if (f.problem?.startsWith("YAML body")) expect(detail.data, f.relPath).toBeNull();
      expect(detail.headers.length, f.relPath).toBeLessThanOrEqual(1000);
      // The body and the reference view each hold the text once; nothing is expanded past that.
      expect(JSON.stringify(detail).length, f.relPath).toBeLessThan(f.text.length * 3 + 10_000);
    }
  });

  it("journals a dead letter nested 200 deep as a dead letter of the one inside it, and no deeper", async () => {
    await scanSource(source, new JournalWriter(db), { reportProgress: false });
    const letter = row(".ignite/queue/dead_letter/dl_200_dlq_1795300000.mime");
    expect(letter?.status).toBe("dead");
    expect(keyOf("<dl_199@ignite.local>")).toBeDefined();
    expect(keyOf("<dl_198@ignite.local>")).toBeUndefined();
  });

  it("threads a self-reply and a two-message reply cycle without looping", async () => {
    await scanSource(source, new JournalWriter(db), { reportProgress: false });
    expect(queryThreads(db, "", 1000).items.length).toBeGreaterThan(0);
    for (const mid of ["<self_reply@ignite.local>", "<cycle_a@ignite.local>", "<cycle_b@ignite.local>"]) {
      const key = keyOf(mid) ?? "";
      const of = queryThreadOf(db, key);
      const thread = of ? queryThread(db, of.id) : null;
      // A message never replies to itself in the graph, and each of the cycle's two edges is drawn once.
      for (const e of thread?.edges ?? []) expect(e.from, mid).not.toBe(e.to);
      expect((thread?.edges ?? []).filter((e) => e.kind === "reply").length, mid).toBeLessThanOrEqual(2);
    }
  });
});
