import "server-only";
import { probeWrite, repairUnfinishedLoad } from "@/lib/journal/db";
import { clearJournalFault, isTransientFault, journalFaultKind, reportJournalFault, type JournalFaultKind } from "@/lib/journal/faults";
import { reopenJournal, type Journal } from "@/lib/journal/store";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Ready the journal for another try after `kind`: a connection SQLite opened read-only is opened
 * again (it would stay read-only once the file is writable), and what a bulk load that could not
 * finish set aside is put back.
 */
function readyForRetry(journal: Journal, kind: JournalFaultKind | null): void {
  if (kind === "readonly" || kind === "unopenable") reopenJournal(journal);
  repairUnfinishedLoad(journal.db);
}

/**
 * After a journal fault that may clear by itself (a full disk, a read-only file, a lock held
 * elsewhere): every `retryMs`, ready the journal and make `attempt` (a rescan, which journals what
 * changed meanwhile) until it and a write go through; then the fault is cleared. Returns when it
 * has, or once `stopped()`; throws an error that is no such fault (reported if a journal fault).
 */
export async function untilJournalWrites(
  journal: Journal,
  attempt: (ready: () => void) => Promise<void>,
  opts: { retryMs: number; stopped: () => boolean; kind: JournalFaultKind | null },
): Promise<void> {
  let kind = opts.kind;
  for (;;) {
    await sleep(opts.retryMs);
    if (opts.stopped()) return;
    try {
      // Readied in the attempt's own turn: no other ingest job holds the connection meanwhile.
      await attempt(() => {
        readyForRetry(journal, kind);
        kind = null;
      });
      if (opts.stopped()) return;
      probeWrite(journal.db);
      clearJournalFault(journal.file);
      return;
    } catch (err) {
      kind = journalFaultKind(err);
      reportJournalFault(journal.file, err);
      if (opts.stopped()) return;
      if (!isTransientFault(kind)) throw err;
    }
  }
}
