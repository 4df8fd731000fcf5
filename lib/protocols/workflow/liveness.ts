import "server-only";
// A workflow source's health as the overview shows it: the current workflow's agents, live or
// unresponsive by their heartbeat files (protocol doc: compute liveness yourself, the registry's
// own `unresponsive` is written by one tool only). Every file is read bounded, from one safe open.
import { readdir } from "node:fs/promises";
import path from "node:path";
import { NAME_PATTERN, type SourceHealth, type YamlValue } from "@/lib/model";
import { isoToUtc, isRecord, str } from "@/lib/protocols/entry-kit";
import { readJsonStream } from "@/lib/protocols/json-stream";
import { PARSE_LIMITS } from "@/lib/protocols/limits";
import { readInsideRoot, RefusedFile } from "@/lib/protocols/safe-open";
import { detect, type WorkflowLayout } from "./detect";
import { agentHealth, readHeartbeat, readRegistryFile, type AgentHealth, type RegisteredAgent } from "./health";
import { WORKFLOW_DIR } from "./paths";

/** Heartbeat files read per workflow: a run has a handful of agents; this bounds a hostile folder's cost. */
const MAX_HEARTBEATS = 256;
/** A heartbeat file is one timestamp (health.ts reads none longer). */
const HEARTBEAT_BYTES = 256;

/** A root-relative file's bytes, or null when it is missing, refused (a link, a pipe…) or over `maxBytes`. */
async function readSmall(root: string, relPath: string, maxBytes: number): Promise<Buffer | null> {
  try {
    const { bytes, tooLarge } = await readInsideRoot(root, relPath, maxBytes);
    return tooLarge ? null : bytes;
  } catch (err) {
    if (err instanceof RefusedFile) return null;
    throw err;
  }
}

async function readJsonObject(root: string, relPath: string): Promise<{ [key: string]: YamlValue } | null> {
  const bytes = await readSmall(root, relPath, PARSE_LIMITS.documentBytes);
  const first = bytes ? readJsonStream(bytes).items[0] : undefined;
  return first?.ok && isRecord(first.value) ? first.value : null;
}

/**
 * The workflow the overview speaks of: the one `current.json` names (the tools' own pointer to
 * the running workflow), else the last by id (ids begin with their start time).
 */
async function currentWorkflow(layout: WorkflowLayout): Promise<{ id: string; startedAt: string | null } | null> {
  const workflows = (await detect(layout.root))?.workflows ?? [];
  const current = await readJsonObject(layout.root, `${WORKFLOW_DIR}/current.json`);
  const named = current ? str(current.workflow_id) : null;
  if (named !== null && workflows.includes(named)) return { id: named, startedAt: isoToUtc(current?.started_at) };
  const last = workflows.at(-1);
  return last === undefined ? null : { id: last, startedAt: null };
}

async function heartbeatsOf(root: string, workflowDir: string): Promise<Record<string, string | null>> {
  const dir = `${workflowDir}/state/heartbeat`;
  const names = await readdir(path.join(root, dir)).catch(() => [] as string[]);
  const agents = names.filter((n) => n.endsWith(".ts") && NAME_PATTERN.test(n.slice(0, -3))).sort().slice(0, MAX_HEARTBEATS);
  const beats: Record<string, string | null> = {};
  for (const name of agents) {
    const bytes = await readSmall(root, `${dir}/${name}`, HEARTBEAT_BYTES);
    beats[name.slice(0, -3)] = bytes ? readHeartbeat(bytes) : null;
  }
  return beats;
}

/** The overview's words: an agent that beats is healthy; one that finished says how, in the registry's word. */
function asHealthRow(a: AgentHealth, registered: RegisteredAgent | undefined): SourceHealth["agents"][number] {
  const health = a.health === "alive" ? "healthy" : a.health === "finished" ? (a.registryStatus ?? "finished") : a.health;
  const detail = [
    registered?.perspective ?? null,
    a.registryStatus !== null && a.registryStatus !== health ? `registry: ${a.registryStatus}` : null,
    a.lastHeartbeat === null ? "no heartbeat" : `last heartbeat ${a.lastHeartbeat}`,
  ].filter((p): p is string => p !== null);
  return { name: a.agent, health, detail: detail.join(" · ") };
}

/** Health of the current workflow at `nowMs`: no monitor process in this protocol; the session is the workflow. */
export async function workflowHealth(layout: WorkflowLayout, nowMs: number): Promise<SourceHealth> {
  const current = await currentWorkflow(layout);
  if (!current) return { monitor: null, agents: [], session: null };
  const workflowDir = `${WORKFLOW_DIR}/${current.id}`;
  const registryBytes = await readSmall(layout.root, `${workflowDir}/state/agents.json`, PARSE_LIMITS.documentBytes);
  const registry = registryBytes ? readRegistryFile(registryBytes).agents : [];
  const rows = agentHealth({ heartbeats: await heartbeatsOf(layout.root, workflowDir), registry, now: new Date(nowMs) });
  const byName = new Map(registry.map((r) => [r.agent, r]));
  return {
    monitor: null,
    agents: rows.map((a) => asHealthRow(a, byName.get(a.agent))),
    session: { name: current.id, startedAt: current.startedAt },
  };
}
