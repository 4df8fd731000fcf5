// A tiny time-ordered event list: the simulator runs whatever is due at each tick(), so a fake
// clock replays a whole session deterministically.
/** "work" moves the conversation forward; "chore" (polls, clean-ups) does not keep a cycle busy. */
export type EventKind = "work" | "chore";

interface ScheduledEvent {
  at: number;
  seq: number;
  kind: EventKind;
  run: () => unknown;
}

export class Scheduler {
  private events: ScheduledEvent[] = [];
  private seq = 0;

  add(at: number, kind: EventKind, run: () => unknown): void {
    this.events.push({ at, seq: this.seq++, kind, run });
  }

  /** Run every event due at `now`, earliest first (ties in the order they were added). */
  runDue(now: number, onError: (error: unknown) => void): void {
    for (let run = this.takeDue(now); run; run = this.takeDue(now)) {
      try {
        run();
      } catch (error) {
        // One failed step (say, a file Mailroom moved a moment ago) must not stop the show.
        onError(error);
      }
    }
  }

  /** The earliest event due at `now`, taken off the list (for callers that await each one), or null. */
  takeDue(now: number): (() => unknown) | null {
    let next: ScheduledEvent | undefined;
    for (const e of this.events) {
      if (e.at <= now && (!next || e.at < next.at || (e.at === next.at && e.seq < next.seq))) next = e;
    }
    if (!next) return null;
    this.events = this.events.filter((e) => e !== next);
    return next.run;
  }

  has(kind: EventKind): boolean {
    return this.events.some((e) => e.kind === kind);
  }

  clear(): void {
    this.events = [];
  }
}
