// What the dead-letters list shows of an IGNITE v3 dead letter, from its body: the copy inside is
// the authority on the original (its To, type, sender, thread); the journal's rows fill the gaps.
import type { DeadLetterFacts } from "@/lib/protocols/types";
import { parseDeadLetterBody } from "./dead-letter";
import { headerMap, parseHeaderLines, splitAddressList, splitHeaderBlock } from "./reference";

export function deadLetterFacts(body: string): DeadLetterFacts {
  const info = parseDeadLetterBody(body);
  const headers = info.originalText === null ? null : headerMap(parseHeaderLines(splitHeaderBlock(info.originalText).headerPart));
  const header = (name: string) => headers?.get(name) || null;
  return {
    originalFile: info.originalFile,
    originalTo: info.originalAgent ?? splitAddressList(header("To") ?? "")[0] ?? null,
    originalType: header("X-IGNITE-Type"),
    originalFrom: header("From"),
    threadId: header("X-IGNITE-Thread-ID"),
    retryCount: info.retryCount,
    lastError: info.lastError,
    movedAt: info.movedAt,
  };
}
