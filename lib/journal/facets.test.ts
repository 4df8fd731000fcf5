// Facets of the IGNITE fixture, through the route handler and the query with and without indexes.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/facets/route";
import { IngestService } from "@/lib/ingest";
import { getConfig } from "@/lib/server/config";
import { copyFixture } from "@/lib/testing/fixtures";
import { fileRecord } from "@/lib/testing/parsed";
import { openTempJournal } from "@/lib/testing/temp-journal";
import { cachedFacets, holdsSeveralProtocols, queryFacets, querySourceProtocols, type Facets } from "./facets";
import { closeJournals, getJournal } from "./store";

let ws: string;
let data: string;
let ingest: IngestService;

beforeAll(async () => {
  ws = copyFixture("ignite");
  data = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-facets-"));
  process.env.MAILROOM_ROOT = ws;
  process.env.MAILROOM_DATA = data;
  ingest = new IngestService(getConfig(), getJournal());
  await ingest.scanNow();
});
afterAll(() => {
  ingest?.stop();
  closeJournals();
  delete process.env.MAILROOM_ROOT;
  delete process.env.MAILROOM_DATA;
  fs.rmSync(ws, { recursive: true, force: true });
  fs.rmSync(data, { recursive: true, force: true });
});

describe("GET /api/facets", () => {
  it("lists agents, types, priorities and recent threads", async () => {
    const res = await GET(new Request("http://127.0.0.1/api/facets"));
    expect(res.status).toBe(200);
    const body = (await res.json()) as Facets;
    expect(body.agents).toEqual(expect.arrayContaining(["leader", "strategist", "coordinator", "ignitian_1", "ignitian_2", "evaluator"]));
    expect(body.agents).toEqual([...body.agents].sort((a, b) => a.localeCompare(b)));
    expect(new Set(body.agents).size).toBe(body.agents.length);
    expect(body.types).toEqual(expect.arrayContaining(["user_goal", "task_assignment", "strategy_request"]));
    expect(body.priorities).toEqual(expect.arrayContaining(["high", "normal"]));
    expect(body.threads).toContain("thr_readme_42");
    expect(body.threads.length).toBeLessThanOrEqual(50);
    expect(body.sources).toEqual([`${path.basename(ws)}-ignite`]);
    expect(body.protocols).toEqual(["ignite"]);
    // One protocol: the pages need not name it on every message.
    expect(holdsSeveralProtocols()).toBe(false);
  });
});

describe("queryFacets", () => {
  it("gives the same values through an index skip-scan as from the rows", () => {
    const { db } = getJournal();
    const fromRows = queryFacets(db);
    db.exec("CREATE INDEX test_facets_type ON messages (type); CREATE INDEX test_facets_priority ON messages (priority)");
    try {
      const plan = db.prepare("EXPLAIN QUERY PLAN SELECT MIN(type) FROM messages WHERE type > 'a'").all() as { detail: string }[];
      expect(plan.map((p) => p.detail).join(" ")).toMatch(/test_facets_type/);
      expect(queryFacets(db)).toEqual(fromRows);
    } finally {
      db.exec("DROP INDEX test_facets_type; DROP INDEX test_facets_priority");
    }
  });

  it("serves a cached answer while the journal is unchanged or the answer is fresh", () => {
    const { db } = getJournal();
    const bump = () => db.prepare("UPDATE meta SET value = value + 1 WHERE name = 'seq'").run();
    const t0 = Date.now() + 86_400_000;
    bump();
    const first = cachedFacets(db, t0);
    expect(cachedFacets(db, t0 + 1_000_000)).toBe(first);
    bump();
    expect(cachedFacets(db, t0 + 2_000)).toBe(first);
    const later = cachedFacets(db, t0 + 1_000_000);
    expect(later).not.toBe(first);
    expect(later).toEqual(first);
  });
});

describe("sources and protocols", () => {
  it("names each source holding messages and its protocol, a source no longer configured too", () => {
    const journal = openTempJournal();
    try {
      const { db, writer } = journal;
      const add = (source: string, protocol: "ignite" | "shogun", ino: number) =>
        writer.record({ ...fileRecord(`queue/leader/m${ino}.mime`, {}, { mtimeMs: ino, size: 1, ino }), source, protocol });
      writer.upsertSource({ id: "app-shogun", protocol: "shogun", root: "/ws/app", error: null });
      writer.upsertSource({ id: "app-ignite", protocol: "ignite", root: "/ws/app", error: null });
      writer.upsertSource({ id: "empty-ignite", protocol: "ignite", root: "/ws/empty", error: null });
      add("app-shogun", "shogun", 1);
      add("app-ignite", "ignite", 2);
      add("old-ignite", "ignite", 3);
      expect(queryFacets(db)).toMatchObject({ sources: ["app-ignite", "app-shogun", "old-ignite"], protocols: ["ignite", "shogun"] });
      expect(querySourceProtocols(db)).toEqual(
        expect.arrayContaining([{ source: "old-ignite", protocol: "ignite" }, { source: "app-shogun", protocol: "shogun" }]),
      );
      // Its files gone from disk (the journal keeps the messages), a source still has its protocol.
      writer.markGone("old-ignite", "queue/leader/m3.mime");
      expect(db.prepare("SELECT path FROM messages WHERE source = 'old-ignite'").pluck().get()).toBeNull();
      expect(querySourceProtocols(db)).toContainEqual({ source: "old-ignite", protocol: "ignite" });
      // A source of many-entry files no longer configured: its protocol from an entry's message row.
      db.prepare("INSERT INTO entries (key, source, path, locator, kind, message_id, entry) VALUES ('k1', 'old-kicklang', 'c/general.jsonl', 'id-1', 'message', 'id-1', '{}')").run();
      db.prepare(
        `INSERT INTO messages (key, source, protocol, sort_ms, agent, folder, path, last_path, locator, status, updated_ms, seq)
         VALUES ('k1', 'old-kicklang', 'kicklang', 0, 'general', 'channels', 'c/general.jsonl', 'c/general.jsonl', 'id-1', 'sent', 0, 0)`,
      ).run();
      expect(querySourceProtocols(db)).toContainEqual({ source: "old-kicklang", protocol: "kicklang" });
      // Its last message gone from the journal, a source is no longer offered.
      db.prepare("DELETE FROM messages WHERE source = 'app-shogun'").run();
      expect(queryFacets(db)).toMatchObject({ sources: ["app-ignite", "old-ignite", "old-kicklang"], protocols: ["ignite", "kicklang"] });
    } finally {
      journal.close();
    }
  });
});
