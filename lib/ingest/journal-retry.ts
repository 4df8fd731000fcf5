import "server-only";
import { probeWrite, repairUnfinishedLoad } from "@/lib/journal/db";
import {
  clearJournalFault, isTransientFault, journalFaultKind, onJournalFault, reportJournalFault, type JournalFaultKind,
} from "@/lib/journal/faults";
import { reopenJournal, replaceIfDamaged, type Journal } from "@/lib/journal/store";

/** A journal a check found sound is not checked again sooner, however many queries fail meanwhile. */
const RECHECK_MS = 60_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** What the recovery needs of the ingest service it belongs to. */
export interface RecoveryContext {
  journal: Journal;
  /** Runs a job in ingest's turn (a rejection is also reported through the service's own handler). */
  serial: (job: () => Promise<void>) => Promise<void>;
  /** A full rescan (`first`: a start's scan, which reports progress). */
  rescan: (first: boolean) => Promise<void>;
  /** Fill the full-text index of a journal begun anew. */
  fillFullText: () => Promise<void>;
  stopped: () => boolean;
  /** The pause between tries. */
  retryMs: number;
}

/**
 * Ingest's answer to journal faults, wherever they were met (its own jobs, or a request): one
 * that may clear by itself (a full disk, a read-only file, a lock held elsewhere) pauses ingest,
 * which rescans every retryMs until a rescan and a write go through, then carries on by itself;
 * a damaged journal is checked, and if damaged moved aside and built anew from the tree.
 */
export class JournalRecovery {
  private catchingUp: Promise<void> | null = null;
  private checking = false;
  private checkedAt = -Infinity;
  /** Until the first scan went through, start() retries it itself. */
  private started = false;
  private readonly unsubscribe: () => void;

  constructor(private readonly ctx: RecoveryContext) {
    this.unsubscribe = onJournalFault(ctx.journal.file, (kind) => this.onFault(kind));
  }

  close(): void {
    this.unsubscribe();
  }

  /** The first scan failed with `err`: retried until it goes through when the fault may clear (or the journal was damaged and is new now); else thrown. */
  async firstScanFailed(err: unknown): Promise<void> {
    const kind = journalFaultKind(err);
    if (kind === "corrupt" && !this.ctx.stopped()) {
      if (await this.rebuildIfDamaged()) return;
    }
    if (this.ctx.stopped() || !isTransientFault(kind)) throw err;
    await this.catchUp(true, kind);
  }

  firstScanDone(): void {
    this.started = true;
  }

  /** Run `step` (which writes to the journal) until it goes through, waiting out faults that clear by themselves. */
  async persist(step: () => Promise<void>): Promise<void> {
    while (!this.ctx.stopped()) {
      try {
        return await step();
      } catch (err) {
        const kind = reportJournalFault(this.ctx.journal.file, err);
        if (this.ctx.stopped() || !isTransientFault(kind)) throw err;
        await this.catchUp(false, kind);
      }
    }
  }

  private onFault(kind: JournalFaultKind): void {
    if (!this.started || this.ctx.stopped()) return;
    const failed = (err: unknown) => console.error("[mailroom] ingest could not recover the journal:", err);
    if (kind === "corrupt") this.rebuildIfDamaged().catch(failed);
    else if (isTransientFault(kind)) this.catchUp(false, kind).catch(failed);
  }

  /** Check a journal a query found damaged; if it is, rebuild a new one from the tree. Whether it did. */
  private async rebuildIfDamaged(): Promise<boolean> {
    // A check reads every page (seconds on a big journal): not again for each failing request.
    if (this.checking || performance.now() - this.checkedAt < RECHECK_MS) return false;
    this.checking = true;
    let rebuilt = false;
    try {
      await this.ctx.serial(async () => {
        if (!replaceIfDamaged(this.ctx.journal)) return;
        rebuilt = true;
        clearJournalFault(this.ctx.journal.file);
        await this.ctx.rescan(true);
      });
    } finally {
      this.checking = false;
      this.checkedAt = performance.now();
    }
    if (rebuilt && this.started) await this.persist(() => this.ctx.fillFullText());
    return rebuilt;
  }

  /** Retry (one loop at a time) until the journal takes writes again; resolves once it does, or ingest stopped. */
  private catchUp(first: boolean, kind: JournalFaultKind | null): Promise<void> {
    this.catchingUp ??= this.untilJournalWrites(first, kind).finally(() => {
      this.catchingUp = null;
    });
    return this.catchingUp;
  }

  private async untilJournalWrites(first: boolean, faultKind: JournalFaultKind | null): Promise<void> {
    const { journal, stopped } = this.ctx;
    let kind = faultKind;
    for (;;) {
      await sleep(this.ctx.retryMs);
      if (stopped()) return;
      try {
        // Readied in the rescan's own turn, so no other job holds the connection meanwhile.
        await this.ctx.serial(async () => {
          // A connection SQLite opened read-only stays so once the file is writable: opened again.
          if (kind === "readonly" || kind === "unopenable") reopenJournal(journal);
          // What a bulk load that could not finish set aside is put back, as the next open would.
          repairUnfinishedLoad(journal.db);
          await this.ctx.rescan(first);
          if (!stopped()) probeWrite(journal.db);
        });
        if (stopped()) return;
        clearJournalFault(journal.file);
        return;
      } catch (err) {
        kind = journalFaultKind(err);
        reportJournalFault(journal.file, err);
        if (stopped()) return;
        if (!isTransientFault(kind)) throw err;
      }
    }
  }
}
