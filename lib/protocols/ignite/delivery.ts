import "server-only";
// Whether anyone will read a message written to an agent's queue: the queue monitor scans only its
// own agents' queues (queue_monitor.sh: the six fixed ones and ignitian[_-]N), and delivers to a
// running agent, whose session id it keeps in state/.agent_session_<pane>.
import fs from "node:fs/promises";
import path from "node:path";
import { paneAgent } from "./health";

const FIXED = ["leader", "strategist", "architect", "evaluator", "coordinator", "innovator"];
const IGNITIAN = /^ignitian[_-](\d{1,3})$/;

function paneOf(agent: string): number | null {
  const fixed = FIXED.indexOf(agent);
  if (fixed >= 0) return fixed;
  const m = IGNITIAN.exec(agent);
  return m ? Number(m[1]) + 5 : null;
}

async function sessionPanes(runtimeDir: string): Promise<Set<number> | null> {
  const names = await fs.readdir(path.join(runtimeDir, "state")).catch(() => null);
  if (names === null) return null;
  const panes = new Set<number>();
  for (const name of names) {
    const m = /^\.agent_session_(\d{1,3})$/.exec(name);
    if (!m) continue;
    const text = await fs.readFile(path.join(runtimeDir, "state", name), "utf8").catch(() => "");
    if (text.trim() !== "") panes.add(Number(m[1]));
  }
  return panes;
}

/**
 * Why a message to `agent` may never be read, or null. Sessions are judged only in a workspace that
 * keeps session files (a running team): without any, nothing can be said about one agent.
 */
export async function igniteDeliveryWarnings(runtimeDir: string, agents: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const sessions = await sessionPanes(runtimeDir);
  for (const agent of agents) {
    const pane = paneOf(agent);
    if (pane === null) {
      out.set(agent, `The queue monitor does not scan queue/${agent}/ (only leader, strategist, architect, evaluator, coordinator, innovator and ignitian_N): nothing will deliver it.`);
    } else if (sessions !== null && sessions.size > 0 && !sessions.has(pane)) {
      out.set(agent, `${paneAgent(pane)} has no session (state/.agent_session_${pane} is missing or empty): no agent is running to read it.`);
    }
  }
  return out;
}
