import "server-only";
// IGNITE v3's compose (docs/protocols/ignite-mime.md "What Mailroom writes"): one file per
// recipient, in the upstream builder's header order, at `<runtime>/queue/<to>/{type}_{usec}.mime`,
// created atomically with mode 0600. lib/operations/compose.ts checks the request and journals the send.
import fs from "node:fs/promises";
import path from "node:path";
import { createFile, resolveForWrite, takeBack, type MadeFile } from "@/lib/operations/fs";
import { makeFolders } from "@/lib/operations/held-dir";
import type { ComposedFile, ComposeMessage, ComposeTarget, ComposeVocabulary, OwnCompose } from "@/lib/protocols/types";
import { ApiError } from "@/lib/server/api-error";
import { buildMessage, messageFileName, newMessageId } from "./build";
import { igniteDeliveryWarnings } from "./delivery";
import { queueDir } from "./paths";
import { findIgniteLayout, type IgniteLayout } from "./reader";
import { planReply } from "./reply";
import { PRIORITIES, STANDARD_TYPES, templateNames, templateFor } from "./templates";

const NAME_ATTEMPTS = 5;

/** Sub-millisecond digits for the file name, as `date +%s%6N` has them. */
function microsNow(): number {
  return Math.floor(performance.now() * 1000) % 1000;
}

interface Stamp {
  date: Date;
  micros: number;
}

/** `{type}_{usec}.mime`; copies and retries step the microseconds so names never repeat. */
function fileName(type: string, stamp: Stamp, index: number, attempt = 0): string {
  return messageFileName(type, stamp.date, stamp.micros + index + attempt * 50);
}

/** Each recipient needs a real queue folder; a missing one is allowed only with createQueues. */
async function checkQueues(root: string, prefix: string, agents: readonly string[], createQueues: boolean) {
  const missing: string[] = [];
  const problems: string[] = [];
  for (const agent of agents) {
    const rel = queueDir(prefix, agent);
    const st = await fs.lstat(path.join(root, ...rel.split("/"))).catch(() => null);
    if (!st) {
      missing.push(agent);
      if (!createQueues) problems.push(`"${agent}" has no queue folder (${rel}); send "createQueues": true to create it`);
    } else if (!st.isDirectory()) {
      problems.push(`"${agent}": ${rel} is not a real folder (Mailroom never writes through links)`);
    }
  }
  return { missing, problem: problems.length ? problems.join("; ") : null };
}

async function writeOne(root: string, prefix: string, type: string, file: ComposedFile, stamp: Stamp, index: number): Promise<{ rel: string; abs: string; made: MadeFile }> {
  if (file.newQueue) {
    const dir = await resolveForWrite(root, `${queueDir(prefix, file.agent)}/.keep`);
    makeFolders(path.dirname(dir), queueDir(prefix, file.agent));
  }
  for (let attempt = 0; ; attempt++) {
    const rel = `${queueDir(prefix, file.agent)}/${fileName(type, stamp, index, attempt)}`;
    const abs = await resolveForWrite(root, rel);
    try {
      return { rel, abs, made: await createFile(abs, file.content, rel) };
    } catch (err) {
      // Another writer took this microsecond: take the next free name, never overwrite.
      if (!(err instanceof ApiError && err.code === "target_exists") || attempt + 1 >= NAME_ATTEMPTS) throw err;
    }
  }
}

/**
 * All or nothing: a failure takes back the copies already written (the monitor polls every 10 s),
 * each by its inode (takeBack). A copy the monitor already moved on stays, and the error says so:
 * "nothing was written" would be false, and sending again would deliver it twice.
 */
async function writeAll(root: string, prefix: string, type: string, files: readonly ComposedFile[], stamp: Stamp): Promise<string[]> {
  const written: Awaited<ReturnType<typeof writeOne>>[] = [];
  try {
    for (const [i, file] of files.entries()) written.push(await writeOne(root, prefix, type, file, stamp, i));
  } catch (err) {
    const found = await Promise.all(written.map((w) => takeBack(w.abs, w.made).catch((e: unknown) => e)));
    const stayed = written.flatMap((w, i) => {
      const f = found[i];
      if (f === "ours") return [];
      return [f === "gone" || f === "theirs" ? `${w.rel} had already been taken by its agent and stays sent` : `${w.rel} could not be taken back (${f instanceof Error ? f.message : String(f)})`];
    });
    if (stayed.length === 0) throw err;
    const why = err instanceof Error ? err.message : String(err);
    throw new ApiError(409, "partly_sent", `${why}; but ${stayed.join("; ")} (the other copies were taken back)`);
  }
  return written.map((w) => w.rel);
}

function targetOf(root: string, layout: IgniteLayout): ComposeTarget {
  const prefix = layout.runtimePrefix;
  return {
    checkRecipients: (agents, createQueues) => checkQueues(root, prefix, agents, createQueues),
    async plan(m: ComposeMessage, missing, date) {
      const stamp: Stamp = { date, micros: microsNow() };
      const warnings = await igniteDeliveryWarnings(layout.runtimeDir, m.to);
      const files = m.to.map((agent, i) => ({
        agent,
        path: `${queueDir(prefix, agent)}/${fileName(m.type, stamp, i)}`,
        newQueue: missing.includes(agent),
        warning: warnings.get(agent) ?? null,
        // Every copy names all recipients; each gets its own Message-ID, for it is its own file.
        content: buildMessage({
          from: m.from, to: m.to, cc: m.cc, type: m.type, priority: m.priority,
          threadId: m.threadId, inReplyTo: m.inReplyTo, repository: m.repository, issue: m.issue,
          body: m.body, date, messageId: newMessageId(date, process.pid),
        }),
      }));
      return { files, write: () => writeAll(root, prefix, m.type, files, stamp) };
    },
  };
}

/** The form's words: the standard types, the priorities, and each type's starting body. */
const vocabulary: ComposeVocabulary = {
  types: STANDARD_TYPES,
  priorities: PRIORITIES,
  templates: Object.fromEntries(templateNames().map((type) => [type, templateFor(type)])),
};

export const igniteCompose: OwnCompose = {
  vocabulary,
  reply: (original, agents) => planReply(original, agents),
  async open(root) {
    // Found as the reader finds it (an absolute root), written through the root as configured.
    const layout = await findIgniteLayout(path.resolve(root));
    return layout && targetOf(root, layout);
  },
};
