import useSWR from "swr";
import type { JournalProblem } from "@/lib/model";
import { DEFAULT_POLL_MS, dedupeFor } from "./config";
import { fetchJson, type ApiClientError } from "./fetcher";
import { keys } from "./keys";

interface HealthResponse {
  ok: boolean;
  journal: JournalProblem | null;
}

/**
 * The journal's problem, live (`initial`: the server's, when the page was rendered): polled at the poll interval while there is one (so the banner goes
 * once Mailroom caught up), five times slower while all is well (so one that arises shows soon).
 */
export function useJournalProblem(initial?: JournalProblem | null, pollMs: number = DEFAULT_POLL_MS): JournalProblem | null {
  const res = useSWR<HealthResponse, ApiClientError | Error>(keys.health, fetchJson<HealthResponse>, {
    // Without `initial` (a component under the banner), what the banner's hook fetched, or none yet.
    fallbackData: initial === undefined ? undefined : { ok: initial === null, journal: initial },
    refreshInterval: (latest) => (latest?.journal ? pollMs : pollMs * 5),
    dedupingInterval: dedupeFor(pollMs),
  });
  return res.data?.journal ?? null;
}

/** Whether ingest waits on the journal (every problem but a notice of a copy moved aside). */
export function indexingPaused(problem: JournalProblem | null): boolean {
  return problem !== null && problem.code !== "journal_moved_aside";
}
