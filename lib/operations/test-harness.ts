// For the operations' and the write API's tests: a temp copy of the IGNITE fixture, a temp
// journal, and ingest registered as the running service (so operations' ingestNow works).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startIngest, stopIngest, type IngestService } from "@/lib/ingest";
import { queryHistory, queryPage, querySummary } from "@/lib/journal/queries";
import { closeJournals, getJournal } from "@/lib/journal/store";
import type { MessageSummary } from "@/lib/model";
import { parseQuery } from "@/lib/query";
import { VOCABULARY } from "@/lib/protocols";
import { ApiError } from "@/lib/server/errors";
import { copyFixture } from "@/lib/testing/fixtures";

export const DL_ARCH = ".ignite/queue/dead_letter/architecture_request_1795133781377120_dlq_1795135015.mime";
export const DL_TASK = ".ignite/queue/dead_letter/task_assignment_1795135151004518_dlq_1795136385.mime";
export const STUCK = ".ignite/queue/evaluator/processed/evaluation_request_1795136092377001.mime";
/** Where a retry of STUCK puts it: back in its agent's queue. */
export const STUCK_RETRIED = ".ignite/queue/evaluator/evaluation_request_1795136092377001.mime";
/** The Origin an operation is recorded as coming from. */
export const ACTOR = "http://127.0.0.1:3000";
export const QUEUED = ".ignite/queue/leader/progress_update_1795136392801166.mime";

export interface Harness {
  ws: string;
  service: IngestService;
  abs(rel: string): string;
  exists(rel: string): boolean;
  read(rel: string): string;
  /** Every file under the runtime directory (the whole tree for another protocol; temp files included), sorted. */
  tree(): string[];
  q(query: string): MessageSummary[];
  keyAt(rel: string): string;
  summary(key: string): MessageSummary | null;
  history(key: string): string[];
  close(): Promise<void>;
}

const ENV = ["MAILROOM_ROOT", "MAILROOM_DATA", "MAILROOM_RESCAN_MS"] as const;

/** A temp copy of fixtures/<fixture> (IGNITE v3 unless told) with ingest running on it. */
export async function openHarness(fixture = "ignite"): Promise<Harness> {
  const ws = copyFixture(fixture);
  const data = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-ops-data-"));
  process.env.MAILROOM_ROOT = ws;
  process.env.MAILROOM_DATA = data;
  process.env.MAILROOM_RESCAN_MS = "60000";
  const service = startIngest();
  await service.scanNow();
  const { db } = getJournal();
  const abs = (rel: string) => path.join(ws, ...rel.split("/"));
  const q = (query: string) => queryPage(db, parseQuery(query, VOCABULARY), 500, null).items;
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  return {
    ws,
    service,
    abs,
    exists: (rel) => fs.existsSync(abs(rel)),
    read: (rel) => fs.readFileSync(abs(rel), "utf8"),
    tree: () => walk(fixture === "ignite" ? path.join(ws, ".ignite") : ws).map((p) => path.relative(ws, p)).sort(),
    q,
    keyAt(rel) {
      const key = q(`path:${rel}`)[0]?.key;
      if (!key) throw new Error(`nothing journaled at ${rel}`);
      return key;
    },
    summary: (key) => querySummary(db, key),
    history: (key) => queryHistory(db, key).map((e) => e.kind),
    async close() {
      // File events an operation's own writes sent are in ingest's turn still: let them end, or
      // closing the journal under one logs an error.
      await service.syncPaths([]);
      stopIngest();
      closeJournals();
      for (const name of ENV) delete process.env[name];
      fs.rmSync(ws, { recursive: true, force: true });
      fs.rmSync(data, { recursive: true, force: true });
    },
  };
}

/** The HTTP status an operation ends with: 200, or its ApiError's status. */
export async function statusOf(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (err) {
    if (err instanceof ApiError) return err.status;
    throw err;
  }
}

/** The ApiError an operation fails with (the test fails if it succeeds). */
export async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error("expected the operation to fail");
}
