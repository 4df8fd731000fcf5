// Test helpers for the protocol teams: drive a team on a fake clock, and read back everything it
// wrote the way the console does, with the protocol's own read side (place, read, resolve) and
// through ingest into a real journal.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { EntryIngest } from "@/lib/ingest/entry-ingest";
import { discoverSources } from "@/lib/ingest/sources";
import { queryPage } from "@/lib/journal/queries";
import { closeJournals, openJournal } from "@/lib/journal/store";
import type { MessageSummary } from "@/lib/model";
import type { Entry } from "@/lib/protocols/entries";
import type { ProtocolReadSide, ReadContext } from "@/lib/protocols/layout";
import { parseQuery } from "@/lib/query";
import { VOCABULARY } from "@/lib/protocols";
import type { FakeClock } from "./testing";
import { walk } from "./testing";
import type { DemoTeam } from "./timed-team";

/** Advance `clock` by `stepMs` per tick for `durationMs`, awaiting each tick, then `each`. */
export async function runTeamFor(team: DemoTeam, clock: FakeClock, durationMs: number, stepMs: number, each?: () => void): Promise<void> {
  for (let elapsed = 0; elapsed < durationMs; elapsed += stepMs) {
    await team.tick();
    each?.();
    clock.ms += stepMs;
  }
}

/** Every entry of every file the side places under `root`, each file read whole, settled by `resolve`. */
export function readBack(side: ProtocolReadSide, root: string, context?: ReadContext): { entries: Entry[]; files: string[]; fileProblems: string[] } {
  const files = walk(root).filter((rel) => side.place(rel) !== null);
  const fileProblems: string[] = [];
  const entries = files.flatMap((rel) => {
    const read = side.read(rel, fs.readFileSync(path.join(root, rel)), context);
    for (const p of read.problems) fileProblems.push(`${rel}: ${p.code} ${p.message}`);
    return read.entries;
  });
  return { entries: side.resolve(entries), files, fileProblems };
}

/** What the console lists for `root`: its sources discovered and scanned into a fresh journal. */
export async function ingestBack(root: string): Promise<{ protocols: string[]; items: MessageSummary[] }> {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-demo-journal-"));
  try {
    const journal = openJournal(path.join(data, "journal.db"));
    const sources = await discoverSources([root]);
    const ingest = new EntryIngest(journal.db);
    for (const s of sources) if (s.entries) await ingest.scan(s.entries);
    const items = queryPage(journal.db, parseQuery("", VOCABULARY), 100_000, null).items;
    return { protocols: sources.map((s) => s.protocol), items };
  } finally {
    closeJournals();
    fs.rmSync(data, { recursive: true, force: true });
  }
}
