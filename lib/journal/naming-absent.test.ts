// The entries naming an id their source has no entry of, found in one pass over the source's
// references a page at a time: every such entry once, however its references fall across pages.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTempJournal, type TempJournal } from "@/lib/testing/temp-journal";
import { absentInPage, namingAbsent } from "./naming-absent";
import { preparedOnce } from "./prepared";

let journal: TempJournal;
let db: TempJournal["db"];
beforeEach(() => {
  journal = openTempJournal();
  db = journal.db;
});
afterEach(() => journal.close());

/** An entry of `source` with message id `id` naming `targets`; returns its entry id. */
function entry(source: string, id: string, targets: readonly string[]): number {
  const entryId = Number(
    db.prepare("INSERT INTO entries (key, source, path, locator, kind, message_id, entry) VALUES (?, ?, 'c.jsonl', ?, 'message', ?, '{}')").run(`${source}-${id}`, source, id, id).lastInsertRowid,
  );
  for (const target of targets) db.prepare("INSERT INTO entry_refs (entry, source, target) VALUES (?, ?, ?)").run(entryId, source, target);
  return entryId;
}

/** What one statement over every reference of the source finds (the answer the pages must add up to). */
const atOnce = (source: string) =>
  db.prepare("SELECT DISTINCT r.entry FROM entry_refs r WHERE r.source = ? AND NOT EXISTS (SELECT 1 FROM entries e WHERE e.source = r.source AND e.message_id = r.target) ORDER BY r.entry").pluck().all(source) as number[];

async function collect(source: string, batch: number, refs: number): Promise<{ batches: number[][]; pauses: number }> {
  let pauses = 0;
  const batches: number[][] = [];
  for await (const ids of namingAbsent(preparedOnce(db), source, batch, async () => void pauses++, refs)) batches.push(ids);
  return { batches, pauses };
}

describe("namingAbsent", () => {
  it("finds every entry naming an absent id once, across pages that split one target's references, and none of another source", async () => {
    const request = entry("s", "req-1", []);
    const answers = [entry("s", "a-1", ["req-1"]), entry("s", "a-2", ["req-1"])];
    // Five entries name one absent id, so its references span pages of two; one names two absent ids.
    const lost = ["l-1", "l-2", "l-3", "l-4", "l-5"].map((id) => entry("s", id, ["gone-1"]));
    const twice = entry("s", "t-1", ["gone-2", "gone-3"]);
    entry("other", "o-1", ["gone-1"]);
    const { batches, pauses } = await collect("s", 3, 2);
    const found = batches.flat();
    expect(found.sort((a, b) => a - b)).toEqual([...lost, twice].sort((a, b) => a - b));
    expect(found).toEqual([...new Set(found)]);
    expect(found).not.toContain(request);
    for (const a of answers) expect(found).not.toContain(a);
    expect(atOnce("s")).toEqual([...lost, twice].sort((a, b) => a - b));
    // 9 references in pages of 2: 5 pages, a turn between each two, and batches of 3 then the rest.
    expect(pauses).toBe(4);
    expect(batches.map((b) => b.length)).toEqual([3, 3]);
  });

  it("reads at most a page of references a statement, and yields nothing when no entry names an absent id", async () => {
    for (let i = 0; i < 10; i++) entry("s", `m-${i}`, i === 0 ? [] : [`m-${i - 1}`]);
    const sql = preparedOnce(db);
    const first = absentInPage(sql, "s", { target: "", at: -1 }, 4);
    expect(first.entries).toEqual([]);
    expect(first.next).not.toBeNull();
    expect((await collect("s", 2_000, 4)).batches).toEqual([]);
  });
});
