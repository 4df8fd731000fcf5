import "server-only";
import fs from "node:fs/promises";
import path from "node:path";
import type { SourceInfo } from "@/lib/model";
import { findIgniteLayout } from "@/lib/protocols/ignite";

/** The IGNITE workspace a message is written into. */
export interface ComposeTarget {
  sourceId: string;
  /** The root as configured (the path ingest knows files by). */
  root: string;
  /** How the root reaches the runtime directory: ".ignite/" or "". */
  prefix: string;
}

type Picked = { source: SourceInfo; error?: undefined } | { source?: undefined; error: string };

/** The source named in the request, or the only IGNITE source when none is named. */
export function pickSource(requested: string | null, sources: readonly SourceInfo[]): Picked {
  const ignite = sources.filter((s) => s.protocol === "ignite");
  if (requested !== null) {
    const source = ignite.find((s) => s.id === requested);
    if (source) return { source };
    const known = ignite.map((s) => s.id).join(", ") || "none";
    return { error: `"${requested}" is not an IGNITE workspace of this Mailroom (known: ${known})` };
  }
  const [only, ...others] = ignite;
  if (!only) return { error: "no IGNITE workspace is configured (MAILROOM_ROOT) to write into" };
  if (others.length > 0) return { error: `several IGNITE workspaces are configured; name one (${ignite.map((s) => s.id).join(", ")})` };
  return { source: only };
}

export async function openTarget(source: SourceInfo): Promise<{ target?: ComposeTarget; error?: string }> {
  const layout = await findIgniteLayout(source.root);
  if (!layout) return { error: `${source.id} has no readable queue folder right now (${source.error ?? "is the workspace there?"})` };
  return { target: { sourceId: source.id, root: source.root, prefix: layout.runtimePrefix } };
}

/** `<runtime>/queue/<agent>`, root-relative. */
export function queueDirOf(target: ComposeTarget, agent: string): string {
  return `${target.prefix}queue/${agent}`;
}

export function absolute(target: ComposeTarget, relPath: string): string {
  return path.join(target.root, ...relPath.split("/"));
}

export interface QueueCheck {
  /** Agents whose queue folder does not exist (yet). */
  missing: string[];
  /** Why the recipients cannot be written to, or null. */
  problem: string | null;
}

/** Each recipient needs a real queue folder; a missing one is allowed only with createQueues. */
export async function checkQueues(target: ComposeTarget, agents: readonly string[], createQueues: boolean): Promise<QueueCheck> {
  const missing: string[] = [];
  const problems: string[] = [];
  for (const agent of agents) {
    const rel = queueDirOf(target, agent);
    const st = await fs.lstat(absolute(target, rel)).catch(() => null);
    if (!st) {
      missing.push(agent);
      if (!createQueues) problems.push(`"${agent}" has no queue folder (${rel}); send "createQueues": true to create it`);
    } else if (!st.isDirectory()) {
      problems.push(`"${agent}": ${rel} is not a real folder (Mailroom never writes through links)`);
    }
  }
  return { missing, problem: problems.length ? problems.join("; ") : null };
}
