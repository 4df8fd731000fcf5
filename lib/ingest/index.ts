import "server-only";
import fs from "node:fs";
import { ConfigError, getConfig } from "@/lib/server/config";
import { JOURNAL_RETRY_MS, journalFaultKind } from "@/lib/journal/faults";
import { getJournal } from "@/lib/journal/store";
import { IngestService } from "./service";
import { discoverSources, rootProblem, type Source } from "./sources";
import { viewsOf, type SourceViews } from "./source-views";
import type { ReadableSource } from "./sync";

const registry = globalThis as typeof globalThis & { __mailroomIngest?: IngestService };

/** Start ingest once per process (instrumentation calls this when the server starts). */
export function startIngest(retryMs = JOURNAL_RETRY_MS): IngestService {
  if (!registry.__mailroomIngest) {
    const service = new IngestService(getConfig(), getJournal(), undefined, retryMs);
    registry.__mailroomIngest = service;
    service.start().catch((err) => console.error("[mailroom] ingest failed to start:", err));
  }
  return registry.__mailroomIngest;
}

/** Per adoption by the running ingest (a new array at each scan): the sources found at that scan. */
const discoveredAtScan = new WeakMap<readonly ReadableSource[], Promise<Source[]>>();

/**
 * The workspaces' readable sources, as views of their liveness, logs and documents. While ingest
 * runs, the roots are detected again once per scan it adopts, not at each poll (detecting five
 * roots costs 1.3 to 3 ms here): ingest keeps its wave-2 sources to itself, and detection gives
 * the same ids and layouts it found. Discovered afresh when ingest is not running.
 */
export async function readableSources(): Promise<readonly SourceViews[]> {
  const adopted = registry.__mailroomIngest?.readableSources();
  if (!adopted) return viewsOf(await discoverSources(getConfig().roots));
  let discovered = discoveredAtScan.get(adopted);
  if (!discovered) {
    discovered = discoverSources(getConfig().roots);
    discoveredAtScan.set(adopted, discovered);
    // A discovery that failed (a root unreadable for a moment) is tried again at the next poll.
    discovered.catch(() => discoveredAtScan.delete(adopted));
  }
  return viewsOf(await discovered);
}

/**
 * Have the running ingest look at these absolute paths now (no-op when ingest is not running). A
 * journal that cannot be written now does not fail the operation that wrote them: the fault is
 * on every page, and ingest journals these files once it can.
 */
export async function ingestNow(absPaths: string[]): Promise<void> {
  await registry.__mailroomIngest?.syncPaths(absPaths).catch((err: unknown) => {
    if (journalFaultKind(err) === null) throw err;
  });
}

/** Run an operation's writes in ingest's turn, then have it look at these absolute paths (just the writes when ingest is not running). */
export async function writeThenIngest<T>(write: () => Promise<T>, absPaths: string[]): Promise<T> {
  const service = registry.__mailroomIngest;
  return service ? service.writeThenSync(write, absPaths) : write();
}

/**
 * Start ingest at server start; a bad setting stops the server with a message that names it. A
 * journal that cannot be opened (reported on every page) does not: opening is tried again until
 * it can be, and ingest starts then. A workspace folder that cannot be read is said at once too,
 * though the server goes on (its pages say so, and the messages seen before stay browsable):
 * scripts/serve.mjs says "Ready" only after.
 */
export function startIngestOrExit(retryMs = JOURNAL_RETRY_MS): void {
  try {
    startIngest(retryMs);
  } catch (err) {
    if (journalFaultKind(err) !== null) {
      setTimeout(() => startIngestOrExit(retryMs), retryMs).unref();
      return;
    }
    if (!(err instanceof ConfigError)) throw err;
    console.error(`mailroom: ${err.message}`);
    process.exit(2);
  }
  for (const root of getConfig().roots) {
    const problem = rootProblem(root, statOrNull(root));
    if (problem !== null) console.error(`mailroom: ${problem}`);
  }
}

function statOrNull(file: string): fs.Stats | NodeJS.ErrnoException {
  try {
    return fs.statSync(file);
  } catch (err) {
    return err as NodeJS.ErrnoException;
  }
}

export function stopIngest(): void {
  registry.__mailroomIngest?.stop();
  delete registry.__mailroomIngest;
}

export { IngestService } from "./service";
