import "server-only";
import { getConfig } from "@/lib/server/config";
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

export function stopIngest(): void {
  registry.__mailroomIngest?.stop();
  delete registry.__mailroomIngest;
}

export { IngestService } from "./service";
