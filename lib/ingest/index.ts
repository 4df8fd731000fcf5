import "server-only";
import { ConfigError, getConfig } from "@/lib/server/config";
import { getJournal } from "@/lib/journal/store";
import { IngestService } from "./service";

const registry = globalThis as typeof globalThis & { __mailroomIngest?: IngestService };

/** Start ingest once per process (instrumentation calls this when the server starts). */
export function startIngest(): IngestService {
  if (!registry.__mailroomIngest) {
    const service = new IngestService(getConfig(), getJournal());
    registry.__mailroomIngest = service;
    service.start().catch((err) => console.error("[mailroom] ingest failed to start:", err));
  }
  return registry.__mailroomIngest;
}

/** Have the running ingest look at these absolute paths now (no-op when ingest is not running). */
export async function ingestNow(absPaths: string[]): Promise<void> {
  await registry.__mailroomIngest?.syncPaths(absPaths);
}

/** Run an operation's writes in ingest's turn, then have it look at these absolute paths (just the writes when ingest is not running). */
export async function writeThenIngest<T>(write: () => Promise<T>, absPaths: string[]): Promise<T> {
  const service = registry.__mailroomIngest;
  return service ? service.writeThenSync(write, absPaths) : write();
}

/** Start ingest at server start; a bad setting stops the server with a message that names it. */
export function startIngestOrExit(): void {
  try {
    startIngest();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`mailroom: ${err.message}`);
    process.exit(2);
  }
}

export function stopIngest(): void {
  registry.__mailroomIngest?.stop();
  delete registry.__mailroomIngest;
}

export { IngestService } from "./service";
