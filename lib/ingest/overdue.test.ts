// Two sweeps mark messages stuck each second, as the service runs them: the one-file-per-message
// path's (a file processing too long) and the entries' (an entry past its adapter's due time). Each
// keeps to its own rows, so an overdue entry gets one step in its history, not one a second.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { queryHistory } from "@/lib/journal/queries";
import { copyFixture } from "@/lib/testing/fixtures";
import { openTempJournal, type TempJournal } from "@/lib/testing/temp-journal";
import { discoverSources } from "./sources";
import { EntryIngest, type EntrySource } from "./entry-ingest";

const temps: string[] = [];
let journal: TempJournal | null = null;
afterEach(() => {
  journal?.close();
  for (const t of temps.splice(0)) fs.rmSync(t, { recursive: true, force: true });
});

let now = Date.parse("2026-01-25T15:00:00Z");

async function ingestOf(name: string): Promise<{ root: string; ingest: EntryIngest; source: EntrySource; j: TempJournal }> {
  const root = copyFixture(name);
  temps.push(root);
  const j = openTempJournal(() => now);
  journal = j;
  const [source] = (await discoverSources([root])).flatMap((s) => (s.entries ? [s.entries] : []));
  if (!source) throw new Error(`${name} is an entry source`);
  const ingest = new EntryIngest(j.db, () => now);
  await ingest.scan(source);
  return { root, ingest, source, j };
}

/** The service's timer, `rounds` seconds of it (service.ts sweepStuck). */
function sweep(j: TempJournal, ingest: EntryIngest, rounds: number): void {
  for (let i = 0; i < rounds; i++) {
    now += 1_000;
    j.writer.refreshStuck(60_000);
    ingest.sweepDue();
  }
}

const rowOf = (j: TempJournal, id: string) => j.db.prepare("SELECT key, stuck FROM messages WHERE message_id = ?").get(id) as { key: string; stuck: number };
const kinds = (j: TempJournal, key: string) => queryHistory(j.db, key).map((e) => e.kind);

describe("the stuck sweeps", () => {
  it("step an overdue workflow message once, and keep it stuck, however many seconds they run", async () => {
    const { ingest, j } = await ingestOf("workflow");
    const id = "msg_20260125143455_5e6f7a8b";
    sweep(j, ingest, 5);
    const row = rowOf(j, id);
    expect(row.stuck).toBe(1);
    expect(kinds(j, row.key).filter((k) => k === "overdue")).toHaveLength(1);
  });

  it("leave an IGNITE v2 message processing to its own due time, and step it overdue again in a later stint", async () => {
    now = Date.parse("2026-02-05T03:44:50Z"); // ten seconds into the fixture's processing stint (due after 300 s)
    const { root, ingest, source, j } = await ingestOf("ignite-yaml");
    const id = "evaluation_request_1770262765402266";
    const key = rowOf(j, id).key;
    sweep(j, ingest, 3);
    expect(rowOf(j, id).stuck).toBe(0);
    now += 300_000;
    sweep(j, ingest, 3);
    expect(rowOf(j, id).stuck).toBe(1);
    expect(kinds(j, key).filter((k) => k === "overdue" || k === "stuck")).toEqual(["overdue"]);

    // The monitor takes it up again: a new stint, due 300 s from its new processed_at.
    const file = path.join(root, "queue", "evaluator", "processed", `${id}.yaml`);
    const restarted = new Date(now).toISOString();
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/processed_at: "2026-02-05T12:44:40\+09:00"\n$/, `processed_at: "${restarted}"\n`));
    await ingest.scan(source);
    expect(rowOf(j, id).stuck).toBe(0);
    now += 301_000;
    sweep(j, ingest, 3);
    expect(rowOf(j, id).stuck).toBe(1);
    expect(kinds(j, key).filter((k) => k === "overdue" || k === "stuck")).toEqual(["overdue", "overdue"]);
  });
});
