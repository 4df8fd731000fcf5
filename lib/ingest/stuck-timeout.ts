import "server-only";
import type { Config } from "@/lib/server/config";
import type { ReadableSource } from "./sync";

/**
 * When processing turns stuck: MAILROOM_STUCK_AFTER when set, else what the workspaces' own
 * settings say (IGNITE: system.yaml's task_timeout, as its monitor reads it), else the default.
 * One journal-wide threshold: with several workspaces that disagree, the shortest one.
 */
export class StuckTimeout {
  /** What the workspaces' settings gave at the last refresh (null: none says). */
  private fromSources: number | null = null;

  constructor(private readonly config: Pick<Config, "stuckAfterMs" | "stuckAfterSet">) {}

  /** Read the workspaces' settings again (once a scan) and give the threshold. */
  async refresh(sources: readonly ReadableSource[]): Promise<number> {
    if (this.config.stuckAfterSet) return this.config.stuckAfterMs;
    const own = await Promise.all(sources.map((s) => s.reader.processingTimeoutMs?.().catch(() => null) ?? null));
    const given = own.filter((ms): ms is number => ms !== null);
    this.fromSources = given.length > 0 ? Math.min(...given) : null;
    return this.current();
  }

  /** The threshold as of the last refresh: the once-a-second sweep reads no files. */
  current(): number {
    return this.config.stuckAfterSet ? this.config.stuckAfterMs : (this.fromSources ?? this.config.stuckAfterMs);
  }
}
