// A journal SQLite cannot open (garbage over its header, damaged pages, cut short): moved aside byte
// for byte, never deleted or overwritten, a new one built from the tree, and the fact reported.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { IngestService } from "@/lib/ingest/service";
import type { JournalProblem } from "@/lib/model";
import { loadConfig, type Config } from "@/lib/server/config";
import { copyFixture } from "@/lib/testing/fixtures";
import { journalProblem } from "./faults";
import { queryStats } from "./stats";
import { closeJournals, openJournal } from "./store";

let ws: string;
let data: string;
let config: Config;
const saved = { root: process.env.MAILROOM_ROOT, data: process.env.MAILROOM_DATA };

let journaled = 0;

/** A journal of the IGNITE fixture, closed (its WAL checkpointed into it). */
async function journaledTree(): Promise<void> {
  const journal = openJournal(config.journalFile);
  const service = new IngestService(config, journal);
  await service.start();
  service.stop();
  journaled = queryStats(journal.db).totals.messages;
  closeJournals();
}

beforeEach(async () => {
  ws = copyFixture("ignite");
  data = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-faults-"));
  config = loadConfig({ MAILROOM_ROOT: ws, MAILROOM_DATA: data, MAILROOM_RESCAN_MS: "60000" });
  process.env.MAILROOM_ROOT = ws;
  process.env.MAILROOM_DATA = data;
  await journaledTree();
});
afterEach(() => {
  closeJournals();
  for (const [k, v] of [["MAILROOM_ROOT", saved.root], ["MAILROOM_DATA", saved.data]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  for (const dir of [ws, data]) fs.rmSync(dir, { recursive: true, force: true });
});

function overwrite(file: string, at: number, bytes: Buffer): void {
  const fd = fs.openSync(file, "r+");
  fs.writeSync(fd, bytes, 0, bytes.length, at);
  fs.closeSync(fd);
}

const PAGE = 16384;
const damages: [string, (file: string) => void][] = [
  ["garbage over its header (SQLITE_NOTADB)", (f) => overwrite(f, 0, Buffer.alloc(100, 0x41))],
  ["garbage over its schema pages (SQLITE_CORRUPT)", (f) => overwrite(f, PAGE, Buffer.alloc(3 * PAGE, 0x41))],
  ["cut short mid-page (SQLITE_CORRUPT)", (f) => fs.truncateSync(f, Math.floor(fs.statSync(f).size / 2) + 1000)],
];

describe("a journal that cannot be opened", () => {
  it.each(damages)("with %s is moved aside byte for byte, reported, and a new one is built from the tree", async (_, damage) => {
    const file = config.journalFile;
    damage(file);
    const damaged = fs.readFileSync(file);

    // Found at the open (a bad header), or by the first scan's first query (checked, then moved aside).
    const journal = openJournal(file);
    const service = new IngestService(config, journal, undefined, 50);
    await service.start();
    service.stop();
    expect(queryStats(journal.db).totals.messages).toBe(journaled);

    const aside = fs.readdirSync(data).filter((n) => n.includes(".corrupt-"));
    expect(aside).toHaveLength(1);
    const asideFile = path.join(data, aside[0] ?? "");
    expect(fs.readFileSync(asideFile).equals(damaged)).toBe(true);

    const problem = journalProblem(file);
    expect(problem).toMatchObject({ code: "journal_moved_aside", file: asideFile });
    expect(problem?.message).toContain(file);
    expect(problem?.action).toContain(asideFile);
    const body = (await (await health(new NextRequest("http://localhost/api/health"))).json()) as { ok: boolean; journal: JournalProblem };
    expect(body).toMatchObject({ ok: false, journal: { code: "journal_moved_aside", file: asideFile } });

    // Deleting the copy is the operator's acknowledgement.
    fs.rmSync(asideFile);
    expect(journalProblem(file)).toBeNull();
  });

  it("a second damaged journal is moved aside beside the first, neither overwritten", () => {
    const file = config.journalFile;
    overwrite(file, 0, Buffer.alloc(100, 0x41));
    const first = fs.readFileSync(file);
    const now = new Date("2026-11-26T10:00:00Z");
    fs.copyFileSync(file, `${file}.corrupt-${now.toISOString().replace(/[:.]/g, "-")}`);
    closeJournals();
    openJournal(file);
    const copies = fs.readdirSync(data).filter((n) => n.includes(".corrupt-"));
    expect(copies).toHaveLength(2);
    for (const c of copies) expect(fs.readFileSync(path.join(data, c)).equals(first)).toBe(true);
  });

  it("a journal of a newer schema is not moved aside: its problem says what to do", async () => {
    const file = config.journalFile;
    const Database = (await import("better-sqlite3")).default;
    const db = new Database(file);
    db.pragma("user_version = 9999");
    db.close();
    const before = fs.readFileSync(file);
    expect(() => openJournal(file)).toThrow(/newer than this Mailroom knows/);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(fs.readdirSync(data).filter((n) => n.includes(".corrupt-"))).toEqual([]);
    const body = (await (await health(new NextRequest("http://localhost/api/health"))).json()) as { ok: boolean; journal: JournalProblem };
    expect(body).toMatchObject({ ok: false, journal: { code: "journal_version", file } });
    expect(body.journal.action).toMatch(/Upgrade Mailroom/);
  });
});
