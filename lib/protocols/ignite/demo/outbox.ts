// Sending a message the way an agent does with `ignite_mime.py build -o queue/<to>/{type}_{usec}.mime`,
// but atomically (temp file + rename) and with mode 0600.
import path from "node:path";
import { buildMessage, messageFileName, newMessageId } from "../build";
import type { Outgoing } from "./agents";
import { createFileAtomic } from "@/lib/demo/fsops";
import { randInt, random64, type Random } from "@/lib/demo/random";

/** Write `out` into its recipient's queue; returns the new Message-ID. */
export function writeOutgoing(igniteDir: string, out: Outgoing, now: Date, pid: number, random: Random): string {
  const messageId = newMessageId(now, pid, () => random64(random));
  const text = buildMessage({
    from: out.from, to: [out.to], type: out.type, priority: out.priority, threadId: out.threadId,
    inReplyTo: out.inReplyTo, repository: out.repository, issue: out.issue, body: out.body,
    date: now, messageId,
  });
  const dir = path.join(igniteDir, "queue", out.to);
  // The microseconds a Date cannot hold are random; on a (rare) clash, take the next free name.
  const micros = randInt(random, 0, 999);
  for (let i = 0; i < 1000; i++) {
    if (createFileAtomic(path.join(dir, messageFileName(out.type, now, (micros + i) % 1000)), text, now)) break;
  }
  return messageId;
}
