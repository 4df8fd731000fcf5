import { describe, expect, it } from "vitest";
import type { DeadLetterInfo, ObservedPlace } from "@/lib/protocols/types";
import { igniteDeadLetterOriginal, igniteLifecycleStep, igniteReplacedPath } from "./lifecycle";

const at = (path: string | null, folder: string, status: string, retryCount = 0): ObservedPlace => ({ path, folder, status, retryCount });

describe("IGNITE's lifecycle steps", () => {
  it("names a conversion, a discard, a restore, a requeue and a retry", () => {
    expect(igniteLifecycleStep(at("queue/a/m.yaml", "queue", "queued"), at("queue/a/m.mime", "queue", "queued"))).toEqual({
      kind: "converted", how: "from IGNITE v2 (YAML) to MIME by the queue monitor",
    });
    expect(igniteLifecycleStep(at("queue/a/m.mime", "queue", "queued"), at("archive/mailroom/queue/a/m.mime", "archive", "discarded"))?.kind).toBe("discarded");
    expect(igniteLifecycleStep(at("archive/mailroom/queue/a/m.mime", "archive", "discarded"), at("queue/a/m.mime", "queue", "queued"))?.kind).toBe("restored");
    for (const status of ["dead", "discarded"]) expect(igniteLifecycleStep(at(null, "processed", status), at("queue/b/m.mime", "queue", "queued"))?.kind).toBe("requeued");
    expect(igniteLifecycleStep(at("queue/a/processed/m.mime", "processed", "delivered"), at("queue/a/m.mime", "queue", "retrying", 1))?.kind).toBe("retried");
  });

  it("knows the v2 file a converted message replaces", () => {
    expect(igniteReplacedPath(".ignite/queue/a/m_1.mime")).toBe(".ignite/queue/a/m_1.yaml");
    expect(igniteReplacedPath(".ignite/queue/a/m_1.yaml")).toBeNull();
  });

  it("leaves any other move plain", () => {
    expect(igniteLifecycleStep(at("queue/a/m.mime", "queue", "queued"), at("queue/a/processed/m.mime", "processed", "delivered"))).toBeNull();
    // Back in the queue, but not as a retry.
    expect(igniteLifecycleStep(at("queue/a/processed/m.mime", "processed", "delivered"), at("queue/a/m.mime", "queue", "queued"))).toBeNull();
  });
});

describe("where a dead letter's original lived", () => {
  const dl = (over: Partial<DeadLetterInfo> = {}): DeadLetterInfo => ({
    originalFile: "t_1.mime", originalMessageId: "<m@x>", originalAgent: "coder", originalText: "x", retryCount: 3, lastError: null, movedAt: null, ...over,
  });

  it("is processed/ of the queue it was bound for, dead while the letter is in the dead-letter queue", () => {
    expect(igniteDeadLetterOriginal({ relPath: ".ignite/queue/dead_letter/t_1_dlq_9.mime", placement: { agent: "dead_letter", folder: "dead_letter" } }, dl())).toEqual({
      relPath: ".ignite/queue/coder/processed/t_1.mime", placement: { agent: "coder", folder: "processed" }, status: "dead",
    });
  });

  it("is in the queue, not the archive, for an archived letter, and discarded", () => {
    expect(igniteDeadLetterOriginal({ relPath: "archive/mailroom/queue/dead_letter/t_1_dlq_9.mime", placement: { agent: "dead_letter", folder: "archive" } }, dl({ originalFile: null }))).toEqual({
      relPath: "queue/coder/processed/unknown.mime", placement: { agent: "coder", folder: "processed" }, status: "discarded",
    });
  });

  it("is completed for a letter a requeue archived: the message went on as the requeued copy, gone since", () => {
    const letter = { relPath: "archive/mailroom/queue/dead_letter/t_1_dlq_9.mime", placement: { agent: "dead_letter", folder: "archive" }, status: "requeued" };
    expect(igniteDeadLetterOriginal(letter, dl({}))?.status).toBe("completed");
  });

  it("is unknown when the letter names no queue", () => {
    expect(igniteDeadLetterOriginal({ relPath: "queue/dead_letter/x.mime", placement: { agent: "dead_letter", folder: "dead_letter" } }, dl({ originalAgent: null }))).toBeNull();
  });
});
