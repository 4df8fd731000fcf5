// Agent liveness, computed from the heartbeat files (protocol doc: only the Node tool marks
// agents unresponsive in agents.json, and the shell health check stops after the first agent). Pure.
import { isoToUtc, isRecord, str } from "@/lib/protocols/entry-kit";
import type { YamlValue } from "@/lib/model";
import type { EntryProblem } from "@/lib/protocols/entries";
import { readJsonStream } from "@/lib/protocols/json-stream";

export const UNRESPONSIVE_AFTER_MS = 30_000;
/** A heartbeat file is one timestamp; anything longer is not one. */
const MAX_HEARTBEAT_BYTES = 256;

/** The time in a heartbeat file (`…000Z` with or without a newline), or null. */
export function readHeartbeat(bytes: Uint8Array): string | null {
  if (bytes.length > MAX_HEARTBEAT_BYTES) return null;
  return isoToUtc(new TextDecoder().decode(bytes).trim());
}

export interface RegisteredAgent {
  agent: string;
  perspective: string | null;
  /** The registry's word: registered, completed, unresponsive, … */
  status: string | null;
  registeredAt: string | null;
  lastHeartbeat: string | null;
}

/** The agents of `state/agents.json` (`registered_at` from the tools, `started_at` in the spec); [] when it does not parse. */
export function readRegistry(bytes: Uint8Array): RegisteredAgent[] {
  return readRegistryFile(bytes).agents;
}

/** The same, with why it gave none: the file's parse or limit problem (one JSON object is read, within the stream's limits). */
export function readRegistryFile(bytes: Uint8Array): { agents: RegisteredAgent[]; problems: EntryProblem[] } {
  const { items } = readJsonStream(bytes);
  const first = items[0];
  if (!first) return { agents: [], problems: bytes.length === 0 ? [] : [{ code: "parse", message: "agents.json holds no complete JSON value." }] };
  if (!first.ok) return { agents: [], problems: [first.problem] };
  if (!isRecord(first.value) || !isRecord(first.value.agents)) return { agents: [], problems: [{ code: "parse", message: "agents.json has no `agents` object." }] };
  return { agents: agentsOf(first.value.agents), problems: [] };
}

function agentsOf(agents: { [name: string]: YamlValue }): RegisteredAgent[] {
  return Object.entries(agents).flatMap(([agent, a]) =>
    isRecord(a)
      ? [{
          agent, perspective: str(a.perspective), status: str(a.status),
          registeredAt: isoToUtc(a.registered_at ?? a.started_at), lastHeartbeat: isoToUtc(a.last_heartbeat),
        }]
      : [],
  );
}

export type Liveness = "alive" | "unresponsive" | "finished" | "unknown";

export interface AgentHealth {
  agent: string;
  /** The heartbeat file's time, else the registry's `last_heartbeat`. */
  lastHeartbeat: string | null;
  health: Liveness;
  registryStatus: string | null;
}

const FINISHED = new Set(["completed", "stopped", "failed"]);

/**
 * Every agent with a heartbeat file or a registry record. An agent is unresponsive when its last
 * heartbeat is older than `unresponsiveAfterMs` at `now`, unless the registry says it finished.
 */
export function agentHealth(input: {
  heartbeats: Record<string, string | null>;
  registry: readonly RegisteredAgent[];
  now: Date;
  unresponsiveAfterMs?: number;
}): AgentHealth[] {
  const limit = input.unresponsiveAfterMs ?? UNRESPONSIVE_AFTER_MS;
  const registered = new Map(input.registry.map((r) => [r.agent, r]));
  const names = [...new Set([...Object.keys(input.heartbeats), ...registered.keys()])].sort();
  return names.map((agent) => {
    const record = registered.get(agent);
    const last = input.heartbeats[agent] ?? record?.lastHeartbeat ?? null;
    const status = record?.status ?? null;
    let health: Liveness = "unknown";
    if (status !== null && FINISHED.has(status)) health = "finished";
    else if (last !== null) health = input.now.getTime() - Date.parse(last) > limit ? "unresponsive" : "alive";
    return { agent, lastHeartbeat: last, health, registryStatus: status };
  });
}
