// Agent liveness, computed from the heartbeat files (protocol doc: only the Node tool marks
// agents unresponsive in agents.json, and the shell health check stops after the first agent). Pure.
import { isoToUtc, isRecord, str } from "@/lib/protocols/entry-kit";
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
  const first = readJsonStream(bytes).items[0];
  if (!first?.ok || !isRecord(first.value) || !isRecord(first.value.agents)) return [];
  return Object.entries(first.value.agents).flatMap(([agent, a]) =>
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
