import "server-only";
// What an IGNITE workspace says about its own liveness: the queue monitor's pid file and
// heartbeat, the agents in state/task_health.json and their session files, runtime.yaml's session.
// Files are read small and never trusted beyond their shape.
import fs from "node:fs/promises";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import type { SourceHealth } from "@/lib/model";
import { iso8601ToIso } from "./dates";
import { readIgniteSettings } from "./settings";

const MAX_STATE_BYTES = 256 * 1024;
/** The monitor polls (and beats) every 10 s unless system.yaml's queue.poll_interval says otherwise. */
const DEFAULT_POLL_SEC = 10;
/** A heartbeat older than this many polls means the monitor stopped. */
export const STALE_POLLS = 3;
/** Pane order of the monitor's agents (queue_monitor.sh): 6 on are ignitian_{pane − 5}. */
const PANES = ["leader", "strategist", "architect", "evaluator", "coordinator", "innovator"];

async function readSmall(file: string): Promise<string | null> {
  const st = await fs.lstat(file).catch(() => null);
  if (!st?.isFile() || st.size > MAX_STATE_BYTES) return null;
  return fs.readFile(file, "utf8").catch(() => null);
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

async function readJson(file: string): Promise<Record<string, unknown> | null> {
  const text = await readSmall(file);
  if (text === null) return null;
  try {
    return record(JSON.parse(text));
  } catch {
    return null;
  }
}

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

export function paneAgent(pane: number): string {
  return pane < PANES.length ? (PANES[pane] ?? `pane_${pane}`) : `ignitian_${pane - 5}`;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function monitorState(runtimeDir: string, nowMs: number, pollSec: number): Promise<NonNullable<SourceHealth["monitor"]>> {
  const beat = await readJson(path.join(runtimeDir, "state", "queue_monitor_heartbeat.json"));
  const lastBeatAt = beat ? iso8601ToIso(str(beat.timestamp) ?? "") : null;
  const pidText = await readSmall(path.join(runtimeDir, "queue_monitor.pid"));
  const pid = pidText !== null && /^\s*\d{1,9}\s*$/.test(pidText) ? Number(pidText) : null;
  const staleMs = STALE_POLLS * pollSec * 1000;
  if (pid !== null && !processAlive(pid)) {
    return { alive: false, lastBeatAt, problem: `The queue monitor is not running: queue_monitor.pid names process ${pid}, which is gone.` };
  }
  if (lastBeatAt === null) {
    return { alive: false, lastBeatAt, problem: "The queue monitor is not running: it has written no heartbeat (state/queue_monitor_heartbeat.json)." };
  }
  const age = nowMs - Date.parse(lastBeatAt);
  if (age > staleMs) {
    return {
      alive: false, lastBeatAt,
      problem: `The queue monitor is not running: its last heartbeat is older than ${STALE_POLLS} polls of ${pollSec} s. Nothing is delivered or retried until it starts again.`,
    };
  }
  return { alive: true, lastBeatAt, problem: null };
}

async function agentStates(runtimeDir: string): Promise<SourceHealth["agents"]> {
  const health = await readJson(path.join(runtimeDir, "state", "task_health.json"));
  const listed = Array.isArray(health?.agents) ? health.agents.map(record) : [];
  const out: SourceHealth["agents"] = [];
  for (const a of listed) {
    const pane = typeof a.pane === "number" && Number.isInteger(a.pane) && a.pane >= 0 && a.pane < 1000 ? a.pane : null;
    if (pane === null) continue;
    const session = await readSmall(path.join(runtimeDir, "state", `.agent_session_${pane}`));
    const hasSession = session !== null && session.trim() !== "";
    const name = str(a.name);
    out.push({
      name: paneAgent(pane),
      health: str(a.status) ?? "unknown",
      detail: [name, hasSession ? null : "no session"].filter(Boolean).join(" · ") || null,
    });
  }
  return out;
}

/** The workspace's health as its files say it at `nowMs`. */
export async function readIgniteHealth(runtimeDir: string, nowMs: number): Promise<SourceHealth> {
  const { pollIntervalSec } = await readIgniteSettings(runtimeDir);
  const runtimeText = await readSmall(path.join(runtimeDir, "runtime.yaml"));
  let system: Record<string, unknown> = {};
  try {
    system = record(record(runtimeText === null ? null : parseYaml(runtimeText, { maxAliasCount: 0 })).system);
  } catch {
    system = {};
  }
  return {
    monitor: await monitorState(runtimeDir, nowMs, pollIntervalSec ?? DEFAULT_POLL_SEC),
    agents: await agentStates(runtimeDir),
    session: runtimeText === null ? null : { name: str(system.session_name), startedAt: iso8601ToIso(str(system.started_at) ?? "") },
  };
}
