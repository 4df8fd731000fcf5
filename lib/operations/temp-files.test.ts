import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openJournal, closeJournals } from "@/lib/journal/store";
import { queryPage } from "@/lib/journal/queries";
import { IngestService } from "@/lib/ingest/service";
import { placeIgnite } from "@/lib/protocols/ignite";
import { parseQuery } from "@/lib/query";
import { VOCABULARY } from "@/lib/protocols";
import { loadConfig } from "@/lib/server/config";
import { copyFixture } from "@/lib/testing/fixtures";
import { removeStaleTempFiles, STALE_TEMP_MS, tempNameFor } from "./temp-files";

let ws: string;
let data: string;
beforeEach(() => {
  ws = copyFixture("ignite");
  data = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-data-"));
});
afterEach(() => {
  closeJournals();
  fs.rmSync(ws, { recursive: true, force: true });
  fs.rmSync(data, { recursive: true, force: true });
});

const queue = (...parts: string[]) => path.join(ws, ".ignite", "queue", ...parts);
const message = (id: string) =>
  `MIME-Version: 1.0\nMessage-ID: <${id}@ignite.local>\nFrom: leader\nTo: leader\nDate: Fri, 20 Nov 2026 10:00:00 +0900\nX-IGNITE-Type: task_assignment\n\ntask_id: t\n`;

/** A temp file as a write killed between its write and its link leaves it, `ageMs` old. */
function leftBehind(target: string, content: string, ageMs: number): string {
  const temp = tempNameFor(target);
  fs.writeFileSync(temp, content, { mode: 0o600 });
  const at = new Date(Date.now() - ageMs);
  fs.utimesSync(temp, at, at);
  return temp;
}

describe("temp files of interrupted writes", () => {
  it("removes only Mailroom's own temp files, and only stale ones", async () => {
    const stale = leftBehind(queue("leader", "a.mime"), message("a"), STALE_TEMP_MS + 60_000);
    const fresh = leftBehind(queue("leader", "b.mime"), message("b"), 0);
    const old = new Date(Date.now() - 2 * STALE_TEMP_MS);
    // An agent's files, however close their names: never removed.
    const agents = [".notes.tmp", "c.mime.tmp-1-0123abcd", ".c.mime.tmp-1-0123ABCD", ".c.mime.tmp-0-0123abcd", ".c.mime.tmp-1-0123abcd.bak"].map((n) => queue("leader", n));
    for (const f of agents) fs.writeFileSync(f, "x");
    const dir = queue("leader", ".d.mime.tmp-1-0123abcd");
    fs.mkdirSync(dir);
    const link = queue("leader", ".e.mime.tmp-1-0123abcd");
    fs.symlinkSync(stale, link);
    for (const f of [...agents, dir]) fs.utimesSync(f, old, old);
    fs.lutimesSync(link, old, old);

    expect(await removeStaleTempFiles([queue()])).toEqual([stale]);
    for (const f of [fresh, ...agents, dir]) expect(fs.existsSync(f)).toBe(true);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it("are cleared when ingest starts, and never journaled as messages", async () => {
    const stale = leftBehind(queue("leader", "task_assignment_1795400000000001.mime"), message("stale-temp"), STALE_TEMP_MS + 60_000);
    const fresh = leftBehind(queue("coordinator", "task_assignment_1795400000000002.mime"), message("fresh-temp"), 0);
    expect(placeIgnite(".ignite/", path.relative(ws, fresh).split(path.sep).join("/"))).toBeNull();
    const config = loadConfig({ MAILROOM_ROOT: ws, MAILROOM_DATA: data, MAILROOM_RESCAN_MS: "60000" });
    const journal = openJournal(config.journalFile);
    const service = new IngestService(config, journal);
    try {
      await service.start();
      expect(fs.existsSync(stale)).toBe(false);
      expect(fs.existsSync(fresh)).toBe(true);
      for (const id of ["stale-temp", "fresh-temp"]) {
        expect(queryPage(journal.db, parseQuery(`mid:<${id}@ignite.local>`, VOCABULARY), 10, null).items).toEqual([]);
      }
    } finally {
      service.stop();
    }
  });
});
