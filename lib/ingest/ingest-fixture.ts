// For the IngestService tests (ingest, start and rescan): a temp copy of the IGNITE fixture, a journal
// of it and a started service, fresh for each test. Not a *.test.ts file, so vitest runs none of it alone.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, vi } from "vitest";
import { openJournal, closeJournals, type Journal } from "@/lib/journal/store";
import { queryPage } from "@/lib/journal/queries";
import { parseQuery } from "@/lib/query";
import { VOCABULARY } from "@/lib/protocols";
import { loadConfig } from "@/lib/server/config";
import { copyFixture } from "@/lib/testing/fixtures";
import { IngestService } from "./service";

// Reassigned before each test: importers read them through ES module live bindings.
export let ws: string;
export let data: string;
export let journal: Journal;
export let service: IngestService;

export const q = (query: string) => queryPage(journal.db, parseQuery(query, VOCABULARY), 500, null).items;
export const queue = (...parts: string[]) => path.join(ws, ".ignite", "queue", ...parts);

/** Wait for a condition. The cap is generous: it only ends a wait that would never end (a loaded 2-core machine took 4 s for what takes 0.1 s idle). */
export async function until<T>(probe: () => T | null | undefined | false, timeoutMs = 60_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() - start > timeoutMs) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function mime(id: string, to: string, extra = ""): string {
  return `MIME-Version: 1.0\nMessage-ID: <${id}@ignite.local>\nFrom: leader\nTo: ${to}\nDate: Fri, 20 Nov 2026 10:00:00 +0900\nX-IGNITE-Type: task_assignment\nX-IGNITE-Priority: high\n${extra}Content-Type: text/x-yaml; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\ntask_id: "t_${id}"\n`;
}

const freshDirs: string[] = [];

/** Call once at a test file's top level: each test gets its own workspace, journal and started service. */
export function setUpIngestFixture(): void {
  beforeEach(async () => {
    ws = copyFixture("ignite");
    data = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-data-"));
    const config = loadConfig({ MAILROOM_ROOT: ws, MAILROOM_DATA: data, MAILROOM_RESCAN_MS: "60000" });
    journal = openJournal(config.journalFile);
    service = new IngestService(config, journal);
    await service.start();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    service.stop();
    closeJournals();
    for (const dir of [ws, data, ...freshDirs.splice(0)]) fs.rmSync(dir, { recursive: true, force: true });
  });
}

/**
 * An empty journal of its own over the same tree, for a first scan. The fixture's service stops
 * first: one process shares one inotify watch per folder, so its watches would hear the writes too.
 */
export function freshJournal(settings: Record<string, string> = {}) {
  service.stop();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-data-"));
  freshDirs.push(dir);
  const config = loadConfig({ MAILROOM_ROOT: ws, MAILROOM_DATA: dir, MAILROOM_RESCAN_MS: "60000", ...settings });
  const fresh = openJournal(config.journalFile);
  return { config, fresh, pageOf: (query: string) => queryPage(fresh.db, parseQuery(query, VOCABULARY), 500, null).items };
}

/** Stop watching, then change the tree as agents would meanwhile: a file deleted, one added (Message-ID `<id@ignite.local>`), one moved. */
export function changeWhileStopped(id: string) {
  service.stop();
  const before = q("agent:innovator")[0];
  fs.unlinkSync(queue("innovator", "improvement_request_1795136391230419.mime"));
  fs.writeFileSync(queue("coordinator", "task_assignment_1795400000000001.mime"), mime(id, "coordinator"));
  const assignment = q("agent:ignitian_3")[0];
  const moved = assignment?.path?.replace("/ignitian_3/", "/ignitian_3/processed/") ?? "";
  fs.renameSync(path.join(ws, assignment?.path ?? ""), path.join(ws, moved));
  return { before, assignment, moved };
}
