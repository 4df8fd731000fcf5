// The full-text index as the entry journal keeps it once built: a batch's new rows go in together,
// and a row's body is indexed again only when it changed (entry-messages.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeJournals, openJournal, type Journal } from "@/lib/journal/store";
import { buildFullText, fullTextReady } from "@/lib/journal/fulltext";
import { queryPage } from "@/lib/journal/queries";
import { VOCABULARY } from "@/lib/protocols";
import { parseQuery } from "@/lib/query";
import { copyFixture } from "@/lib/testing/fixtures";
import { discoverSources } from "./sources";
import { EntryIngest, type EntrySource } from "./entry-ingest";

const temps: string[] = [];
afterEach(() => {
  closeJournals();
  for (const t of temps.splice(0)) fs.rmSync(t, { recursive: true, force: true });
});

async function indexed(name: string): Promise<{ root: string; journal: Journal; rescan: () => Promise<unknown> }> {
  const root = copyFixture(name);
  const data = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-entry-fts-"));
  temps.push(root, data);
  const journal = openJournal(path.join(data, "journal.db"));
  const sources = (await discoverSources([root])).flatMap((s) => (s.entries ? [s.entries] : [])) as EntrySource[];
  const ingest = new EntryIngest(journal.db);
  const rescan = async () => {
    for (const s of sources) await ingest.scan(s);
  };
  await rescan();
  await buildFullText(journal.db, async () => {});
  expect(fullTextReady(journal.db)).toBe(true);
  return { root, journal, rescan };
}

const found = (j: Journal, q: string) => queryPage(j.db, parseQuery(q, VOCABULARY), 1000, null).items;

describe("full-text search over entries journaled after the index was built", () => {
  it("finds each of a batch of appended envelopes, and a request whose status changed since", async () => {
    const { root, journal, rescan } = await indexed("kicklang");
    const request = "d130c0ae-e8ef-4937-9851-2321c99322a5";
    expect(found(journal, "iteration plan for the monitoring").map((m) => m.messageId)).toEqual([request]);
    const envelope = (id: string, content: string, type = "Info") =>
      JSON.stringify({ id, timestamp: "2026-11-26T10:00:00Z", sender: "WePlan", receiver: "Orchestrator", type, channel: "⫻report/status", content, correlation_id: request }) + "\n";
    const file = path.join(root, ".kicklang", "channels", "report", "status.jsonl");
    fs.appendFileSync(file, envelope("fts-1", "⫻report/status:task_003/009\nzebrafish counted") + envelope("fts-2", "⫻report/status:task_003/010\nquokka counted"));
    await rescan();
    expect(found(journal, "zebrafish").map((m) => m.messageId)).toEqual(["fts-1"]);
    expect(found(journal, "quokka").map((m) => m.messageId)).toEqual(["fts-2"]);
    expect(found(journal, "counted").map((m) => m.messageId).sort()).toEqual(["fts-1", "fts-2"]);
    // Settled again by the appends (its row written anew), its body the same: still found by it.
    expect(found(journal, "iteration plan for the monitoring").map((m) => m.messageId)).toEqual([request]);
  });

  it("finds a rewritten message by its new text, and no longer by its old", async () => {
    const { root, journal, rescan } = await indexed("ignite-yaml");
    const file = path.join(root, "queue", "leader", "progress_update_1770263142077120.yaml");
    expect(found(journal, "ignitian_2 から応答なし")).toHaveLength(1);
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace("ignitian_2 から応答なし", "platypus が応答した"));
    await rescan();
    expect(found(journal, "platypus")).toHaveLength(1);
    expect(found(journal, "ignitian_2 から応答なし")).toHaveLength(0);
  });
});
