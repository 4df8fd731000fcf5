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
  /** Every file under each root's .ignite/ (a named fixture's whole root; temp files included), relative to the roots' parent, sorted. */
  tree(): string[];
  /** Reconcile the whole tree now (after a test changed it behind the watcher's back). */
  scanNow(): Promise<void>;
  close(): Promise<void>;
}

const ENV = ["MAILROOM_ROOT", "MAILROOM_DATA", "MAILROOM_RESCAN_MS", "MAILROOM_READONLY"] as const;

/** `count` copies of the IGNITE fixture, or one copy of each named fixture (in a folder of its name, so `shogun` is source `shogun-shogun`). */
export async function openIngestedWorkspace(count: number | readonly string[] = 1): Promise<IngestedWorkspace> {
  const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-ingested-"));
  const roots = typeof count === "number"
    ? Array.from({ length: count }, (_, i) => copyFixture("ignite", path.join(parent, `ws${i + 1}`)))
    : count.map((name) => copyFixture(name, path.join(parent, name)));
  // IGNITE's tree is .ignite/; the other fixtures are a workspace of their own.
  const top = typeof count === "number" ? ".ignite" : "";
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
    tree: () => roots.flatMap((r) => walk(path.join(r, top)).map((f) => path.relative(parent, f))).sort(),
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
