import "server-only";
import fs from "node:fs";
import { ConfigError, getConfig } from "@/lib/server/config";
import { JOURNAL_RETRY_MS, journalFaultKind } from "@/lib/journal/faults";
import { getJournal } from "@/lib/journal/store";
import { IngestService } from "./service";
import { querySources } from "@/lib/journal/queries";
import { discoverSources, keptNames, rootProblem } from "./sources";
import { viewsOf, type SourceViews } from "./source-views";

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

/**
 * The workspaces' readable sources, as views of their liveness, logs and documents: those the
 * running ingest adopted, so a poll does not detect every root again; discovered afresh when
 * ingest is not running or has not scanned yet.
 */
export async function readableSources(): Promise<readonly SourceViews[]> {
  const adopted = registry.__mailroomIngest?.adoptedSources() ?? [];
  if (adopted.length > 0) return viewsOf(adopted);
  // Under the names the journal knows the roots by, as ingest will adopt them; none when it cannot be read.
  const kept = (() => {
    try {
      return keptNames(querySources(getJournal().db));
    } catch {
      return new Map<string, string>();
    }
  })();
  return viewsOf(await discoverSources(getConfig().roots, kept));
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
 * scripts/serve.mjs says "Ready" only after. Resolves once a first start's scan has listed its
 * tree (see HeadStart): the server serves from then.
 */
export function startIngestOrExit(retryMs = JOURNAL_RETRY_MS): Promise<void> {
  let service: IngestService;
  try {
    service = startIngest(retryMs);
  } catch (err) {
    if (journalFaultKind(err) !== null) {
      setTimeout(() => void startIngestOrExit(retryMs), retryMs).unref();
      return Promise.resolve();
    }
    if (!(err instanceof ConfigError)) throw err;
    console.error(`mailroom: ${err.message}`);
    process.exit(2);
  }
  for (const root of getConfig().roots) {
    const problem = rootProblem(root, statOrNull(root));
    if (problem !== null) console.error(`mailroom: ${problem}`);
  }
  return service.headStarted();
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
