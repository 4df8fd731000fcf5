// What the dead-letters list shows of an IGNITE v2 dead letter, read from its YAML as the entry
// reader reads it: the copy of the original inside names who sent it, to whom and what.
import type { DeadLetterFacts } from "@/lib/protocols/types";
import { read } from "./read";

const num = (v: unknown): number | null => (typeof v === "number" ? v : null);
const text = (v: unknown): string | null => (typeof v === "string" ? v : null);

export function deadLetterFacts(body: string): DeadLetterFacts {
  const entry = read("queue/dead_letter/letter.yaml", Buffer.from(body, "utf8")).entries[0];
  const held = entry?.links.find((l) => l.kind === "holds")?.detail ?? {};
  const original = entry?.data !== null && typeof entry?.data === "object" && !Array.isArray(entry.data) ? entry.data.original_message : null;
  const originalType = original !== null && typeof original === "object" && !Array.isArray(original) ? text(original.type) : null;
  return {
    originalFile: text(held.originalFile),
    originalTo: text(held.originalAgent) ?? entry?.to[0] ?? null,
    originalType,
    originalFrom: entry?.from ?? null,
    threadId: entry?.threadKey ?? null,
    retryCount: num(held.retryCount),
    lastError: text(held.lastError),
    movedAt: text(held.movedAt),
  };
}
