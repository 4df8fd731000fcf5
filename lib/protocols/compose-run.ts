import "server-only";
// Every wave-2 protocol's send, planned by its writer (issue 25 point 6): what a dry run shows and
// the write, for lib/operations/compose-protocols.ts, which checks the request and journals the
// send. Reached through the contract (lib/protocols/index.ts), as compose-forms.ts gathers the forms.
import fs from "node:fs/promises";
import path from "node:path";
import type { Protocol, SourceInfo } from "@/lib/model";
import type { ProtocolComposeRequest } from "./compose-forms";
import type { SourceLists } from "./compose-spec";
import { igniteAdapter } from "./ignite";
import { writer as igniteYaml } from "./ignite-yaml";
import { writer as kicklang } from "./kicklang";
import { roleRuleProblem } from "./kicklang/client";
import { writer as shogun } from "./shogun";
import { shogunWarning } from "./shogun/client";
import type { ComposeVocabulary } from "./types";
import { detect as detectWorkflow, writer as workflow } from "./workflow";

/** A send, planned: what a dry run shows, and the write. */
export interface PlannedSend {
  path: string;
  bytes: string;
  /** The warning a send must confirm, or null. */
  confirm: string | null;
  notes: string[];
  /** Writes; resolves to the new message's locator in its file ("" for a file of its own). */
  run(): Promise<string>;
}

type Plan = { path: string; bytes: string; warnings: string[] };
const planned = (p: Plan, confirms: readonly (string | null)[], run: () => Promise<string>): PlannedSend => {
  const said = confirms.filter((c): c is string => c !== null);
  const confirm = said.length > 0 ? said.join(" ") : null;
  return { path: p.path, bytes: p.bytes, confirm, notes: p.warnings.filter((w) => !said.some((c) => w.startsWith(c))), run };
};

/**
 * A send that would make its file (a shogun inbox, a KickLang channel): for a name no agent reads,
 * a typo, it went through without a word (IGNITE v3's compose asks before it makes a queue folder).
 */
async function newFileWarning(root: string, rel: string, what: string): Promise<string | null> {
  const there = await fs.lstat(path.join(root, ...rel.split("/"))).then(() => true, () => false);
  return there ? null : `${rel} does not exist yet: sending makes ${what}. No agent reads it unless one uses that name; check it.`;
}

/** Plan one send to `root` with its protocol's writer; `confirmed`: the sender confirmed the protocol's warning. */
export async function planSend(root: string, r: ProtocolComposeRequest, confirmed: boolean): Promise<PlannedSend> {
  switch (r.protocol) {
    case "ignite-yaml": {
      const p = await igniteYaml.planCompose(root, { from: r.from, to: r.to, type: r.type, priority: r.priority, payload: r.payload });
      return planned(p, [], async () => (await igniteYaml.run(root, p), ""));
    }
    case "shogun": {
      const p = await shogun.planSend(root, { to: r.to, from: r.from, type: r.type, content: r.content });
      const fresh = await newFileWarning(root, p.path, `a new inbox for ${r.to}`);
      return planned(p, [shogunWarning(r.to), fresh], async () => (await shogun.run(root, p)).ids[0] ?? "");
    }
    case "workflow": {
      const p = await workflow.planSend(root, { workflowId: r.workflow, to: r.to, from: r.from, type: r.type, payload: r.payload });
      return planned(p, [], async () => (await workflow.run(root, p)).id);
    }
    case "kicklang": {
      const fields = { sender: r.sender, receiver: r.receiver, type: r.type, channel: r.channel, content: r.content, correlationId: r.correlationId };
      const p = await kicklang.planCompose({ ...fields, confirmRoleRule: confirmed });
      const fresh = await newFileWarning(root, p.path, `a new channel, ${r.channel}`);
      return planned(p, [roleRuleProblem(r.channel, r.sender), fresh], async () => (await kicklang.run(root, p)).id);
    }
  }
}

/** IGNITE v2 writes with IGNITE v3's types and priorities, and its payloads start from v3's templates. */
const WORDS: Partial<Record<Protocol, ComposeVocabulary>> = { "ignite-yaml": igniteAdapter.compose?.vocabulary };

/** What a source's compose form suggests: its agents (a KickLang source's are its channels), its workflow ids and its protocol's words. */
export async function sendListsOf(source: SourceInfo): Promise<SourceLists> {
  const workflows = source.protocol === "workflow" ? ((await detectWorkflow(source.root))?.workflows ?? []) : [];
  const words = WORDS[source.protocol];
  return words ? { agents: source.agents, workflows, words } : { agents: source.agents, workflows };
}
