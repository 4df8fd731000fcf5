// For tests of the server side: temp copies of the IGNITE fixture, a temp journal, and ingest running as
// the server's own service (so an operation's ingestNow and keyAtPath work as in production).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startIngest, stopIngest } from "@/lib/ingest";
import { closeJournals } from "@/lib/journal/store";
import { copyFixture } from "./fixtures";

export interface IngestedWorkspace {
  /** The first workspace root. */
  ws: string;
  roots: string[];
  /** Every file under each root's .ignite/ (temp files included), root-relative, sorted. */
  tree(): string[];
  /** Reconcile the whole tree now (after a test changed it behind the watcher's back). */
  scanNow(): Promise<void>;
  close(): Promise<void>;
}

const ENV = ["MAILROOM_ROOT", "MAILROOM_DATA", "MAILROOM_RESCAN_MS", "MAILROOM_READONLY"] as const;

export async function openIngestedWorkspace(count = 1): Promise<IngestedWorkspace> {
  const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-ingested-"));
  const roots = Array.from({ length: count }, (_, i) => copyFixture("ignite", path.join(parent, `ws${i + 1}`)));
  const data = path.join(parent, "data");
  process.env.MAILROOM_ROOT = roots.join(":");
  process.env.MAILROOM_DATA = data;
  process.env.MAILROOM_RESCAN_MS = "60000";
  delete process.env.MAILROOM_READONLY;
  const service = startIngest();
  await service.scanNow();
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  return {
    ws: roots[0] ?? "",
    roots,
    scanNow: () => service.scanNow(),
    tree: () => roots.flatMap((r) => walk(path.join(r, ".ignite")).map((f) => path.relative(parent, f))).sort(),
    async close() {
      stopIngest();
      await service.syncPaths([]); // let a batch already under way finish before the journal closes
      closeJournals();
      for (const k of ENV) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
      fs.rmSync(parent, { recursive: true, force: true });
    },
  };
}
