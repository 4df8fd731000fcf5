import "server-only";
import fs from "node:fs";
import { ConfigError, getConfig } from "@/lib/server/config";
import { getJournal } from "@/lib/journal/store";
import { IngestService } from "./service";
import { rootProblem } from "./sources";

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

/**
 * Start ingest at server start; a bad setting stops the server with a message that names it. A
 * workspace folder that cannot be read is said at once too, though the server goes on (its pages
 * say so, and the messages seen before stay browsable): scripts/serve.mjs says "Ready" only after.
 */
export function startIngestOrExit(): void {
  try {
    startIngest();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`mailroom: ${err.message}`);
    process.exit(2);
  }
  for (const root of getConfig().roots) {
    const problem = rootProblem(root, statOrNull(root));
    if (problem !== null) console.error(`mailroom: ${problem}`);
  }
}

function statOrNull(file: string): fs.Stats | null {
  try {
    return fs.statSync(file);
  } catch {
    return null;
  }
}

export function stopIngest(): void {
  registry.__mailroomIngest?.stop();
  delete registry.__mailroomIngest;
}

export { IngestService } from "./service";
