import "server-only";
// Compose for the wave-2 protocols (issue 25 point 6): the request is parsed with the protocol's
// own schema (shared with the form), planned and written by the protocol's writer, in ingest's
// turn so the journal holds the new message when the answer names its key.
import path from "node:path";
import { writeThenIngest } from "@/lib/ingest";
import { getClientConfig, keyAtEntry, keyAtPath, listSources, recordAction } from "@/lib/journal";
import type { SourceInfo } from "@/lib/model";
import { protocolComposeSchema, type ProtocolComposeRequest } from "@/lib/protocols/compose-forms";
import type { SourceLists } from "@/lib/protocols/compose-spec";
import { fieldErrorsOf } from "@/lib/protocols/fields";
import { writer as igniteYaml } from "@/lib/protocols/ignite-yaml";
import { writer as kicklang } from "@/lib/protocols/kicklang";
import { roleRuleProblem } from "@/lib/protocols/kicklang/client";
import { writer as shogun } from "@/lib/protocols/shogun";
import { shogunWarning } from "@/lib/protocols/shogun/client";
import { detect as detectWorkflow, writer as workflow } from "@/lib/protocols/workflow";
import { ApiError } from "@/lib/server/errors";
import { ComposeFieldsError, type ComposeResult } from "./compose";

/** A send, planned: what a dry run shows, and the write. */
interface Planned {
  path: string;
  bytes: string;
  /** The warning a send must confirm, or null. */
  confirm: string | null;
  notes: string[];
  /** Writes; resolves to the new message's locator in its file ("" for a file of its own). */
  run(): Promise<string>;
}

type Plan = { path: string; bytes: string; warnings: string[] };
const planned = (p: Plan, confirm: string | null, run: () => Promise<string>): Planned => ({
  path: p.path, bytes: p.bytes, confirm, notes: p.warnings.filter((w) => confirm === null || !w.startsWith(confirm)), run,
});

async function plan(root: string, r: ProtocolComposeRequest, confirmed: boolean): Promise<Planned> {
  switch (r.protocol) {
    case "ignite-yaml": {
      const p = await igniteYaml.planCompose(root, { from: r.from, to: r.to, type: r.type, priority: r.priority, payload: r.payload });
      return planned(p, null, async () => (await igniteYaml.run(root, p), ""));
    }
    case "shogun": {
      const p = await shogun.planSend(root, { to: r.to, from: r.from, type: r.type, content: r.content });
      return planned(p, shogunWarning(r.to), async () => (await shogun.run(root, p)).ids[0] ?? "");
    }
    case "workflow": {
      const p = await workflow.planSend(root, { workflowId: r.workflow, to: r.to, from: r.from, type: r.type, payload: r.payload });
      return planned(p, null, async () => (await workflow.run(root, p)).id);
    }
    case "kicklang": {
      const fields = { sender: r.sender, receiver: r.receiver, type: r.type, channel: r.channel, content: r.content, correlationId: r.correlationId };
      const p = await kicklang.planCompose({ ...fields, confirmRoleRule: confirmed });
      return planned(p, roleRuleProblem(r.channel, r.sender), async () => (await kicklang.run(root, p)).id);
    }
  }
}

/** The writers' own field names, as the request names them. */
const REQUEST_NAME: Record<string, string> = { workflowId: "workflow", confirmRoleRule: "confirmWarnings" };

/** A writer's 400 ("field: why") as the form's field errors; anything else as it is. */
function asFieldError(err: unknown): never {
  const m = err instanceof ApiError && err.status === 400 ? /^([A-Za-z]+): ([\s\S]*)$/.exec(err.message) : null;
  if (m?.[1] && m[2]) throw new ComposeFieldsError({ [REQUEST_NAME[m[1]] ?? m[1]]: m[2] });
  throw err;
}

/** The wave-2 source a request names, or null (IGNITE v3's compose takes the rest). */
export function protocolSourceOf(raw: unknown): SourceInfo | null {
  const id = (raw as { source?: unknown } | null)?.source;
  if (typeof id !== "string") return null;
  return listSources().find((s) => s.id === id && s.protocol !== "ignite") ?? null;
}

const flag = (v: unknown) => v === undefined || typeof v === "boolean";

/** POST /api/compose for a wave-2 source: one message, as its protocol writes it. */
export async function composeForSource(raw: Record<string, unknown>, source: SourceInfo, origin: string): Promise<ComposeResult> {
  if (getClientConfig().readOnly) throw new ApiError(403, "read_only", "Mailroom runs read-only (MAILROOM_READONLY=1): nothing can be sent.");
  const { dryRun, confirmWarnings } = raw;
  // `source` picked the protocol; the rest are that protocol's fields (a `protocol` sent is overruled).
  const fields = Object.fromEntries(Object.entries(raw).filter(([k]) => !["source", "dryRun", "confirmWarnings"].includes(k)));
  const parsed = protocolComposeSchema.safeParse({ ...fields, protocol: source.protocol });
  const errors: Record<string, string> = parsed.success ? {} : fieldErrorsOf(parsed.error);
  if (!flag(dryRun)) errors.dryRun = "must be true or false";
  if (!flag(confirmWarnings)) errors.confirmWarnings = "must be true or false";
  if (!parsed.success || Object.keys(errors).length > 0) throw new ComposeFieldsError(errors);
  const p = await plan(source.root, parsed.data, confirmWarnings === true).catch(asFieldError);
  if (dryRun === true) return { dryRun: true, items: [{ path: p.path, content: p.bytes, newQueue: false, warning: p.confirm, notes: p.notes }] };
  if (p.confirm && confirmWarnings !== true) {
    throw new ApiError(409, "unconfirmed_warning", `Nothing was written: ${p.confirm} Send with "confirmWarnings": true to write it anyway.`);
  }
  const locator = await writeThenIngest(p.run, [path.join(source.root, ...p.path.split("/"))]);
  const key = locator === "" ? keyAtPath(source.root, p.path) : keyAtEntry(source.id, p.path, locator);
  if (key) {
    recordAction(key, "composed", `Sent from Mailroom (${origin}) to ${p.path}`);
    if (p.confirm) recordAction(key, "warning confirmed", `${p.confirm} The sender confirmed it (${origin}).`);
  }
  return { dryRun: false, items: [{ key, path: p.path }] };
}

/** What a source's compose form suggests: its agents (a KickLang source's are its channels) and its workflow ids. */
export async function composeListsOf(source: SourceInfo): Promise<SourceLists> {
  const workflows = source.protocol === "workflow" ? ((await detectWorkflow(source.root))?.workflows ?? []) : [];
  return { agents: source.agents, workflows };
}
