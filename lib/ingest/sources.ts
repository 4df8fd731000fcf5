import "server-only";
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { Protocol } from "@/lib/model";
import { ADAPTERS, CATALOGS, READ_SIDES, type SourceReader } from "@/lib/protocols";
import type { EntrySource } from "./entry-ingest";

export interface Source {
  id: string;
  protocol: Protocol;
  root: string;
  reader: SourceReader | null;
  /** A source whose files hold many entries (IGNITE v2, shogun, workflow, KickLang), read through its adapter's read side. */
  entries?: EntrySource;
  /** Why this root cannot be read, in words a user can act on. */
  error: string | null;
}

function slug(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "") || "root";
}

/**
 * Each root's name in its sources' ids (`<name>-<protocol>`), which key its rows in the journal:
 * its folder's name, stable as long as no other root has it. Roots of the same name
 * (/srv/team-a/workspace and /srv/team-b/workspace) are named with as many parent folders as
 * it takes to tell them apart ("team-a-workspace"), and by a hash of the path where no number
 * of them does: under one id, two trees' files of the same path were one row, rewritten by each.
 */
export function rootNames(roots: readonly string[]): Map<string, string> {
  const parts = new Map(roots.map((r) => [r, path.resolve(r).split(path.sep).filter(Boolean)]));
  const nameAt = (root: string, depth: number) => slug((parts.get(root) ?? []).slice(-depth).join("-"));
  const names = new Map(roots.map((r) => [r, nameAt(r, 1)]));
  for (const group of sharing(names)) {
    const deepest = Math.max(...group.map((r) => parts.get(r)?.length ?? 0));
    let depth = 2;
    while (depth <= deepest && new Set(group.map((r) => nameAt(r, depth))).size < group.length) depth++;
    for (const r of group) names.set(r, nameAt(r, depth));
  }
  // Still shared (paths whose names differ only where slug() folds them, or a deeper name equal to another root's own).
  for (const group of sharing(names)) for (const r of group) names.set(r, `${names.get(r)}-${createHash("sha256").update(path.resolve(r)).digest("hex").slice(0, 8)}`);
  return names;
}

/** The roots that share a name with another, in groups. */
function sharing(names: ReadonlyMap<string, string>): string[][] {
  const byName = new Map<string, string[]>();
  for (const [root, name] of names) byName.set(name, [...(byName.get(name) ?? []), root]);
  return [...byName.values()].filter((g) => g.length > 1);
}

/**
 * Why a workspace root cannot be read at all (null when it is a folder), in words a user can act
 * on, from its stat or the stat's error. Missing and unreadable are different fixes: EACCES is not "not found".
 */
export function rootProblem(root: string, stat: { isDirectory(): boolean } | NodeJS.ErrnoException): string | null {
  if (!(stat instanceof Error) && stat.isDirectory()) return null;
  const code = stat instanceof Error ? (stat.code ?? "EIO") : null;
  const problem =
    code === null ? `${root} is not a folder`
    : code === "ENOENT" || code === "ENOTDIR" ? `workspace folder not found: ${root}`
    : `the workspace folder ${root} cannot be read (${code})`;
  return `${problem}. Check MAILROOM_ROOT.`;
}

/** What each protocol's workspace holds, for a root none claims: "IGNITE v3's .ignite/queue/ …, shogun's queue/inbox/, …". */
const LOOKED_FOR = CATALOGS.map((c) => `${c.label}'s ${c.workspace}`).join(", ");

/** Offer each root to each adapter; a root nothing recognises is reported, not dropped. */
export async function discoverSources(roots: string[]): Promise<Source[]> {
  const sources: Source[] = [];
  const names = rootNames(roots);
  for (const root of roots) {
    const name = names.get(root) ?? slug(path.basename(root));
    const stat = await fs.stat(root).catch((err: NodeJS.ErrnoException) => err);
    const problem = rootProblem(root, stat);
    if (problem !== null) {
      sources.push({ id: `${name}-ignite`, protocol: "ignite", root, reader: null, error: problem });
      continue;
    }
    let found = false;
    const claimed: EntrySource[] = [];
    for (const side of READ_SIDES) {
      const layout = await side.detect(root);
      if (layout) claimed.push({ id: `${name}-${side.protocol}`, protocol: side.protocol, root: layout.root, layout, side });
    }
    // No phantoms: a bare queue/ that another protocol's layout claims (a shogun or v2 tree) is not
    // an IGNITE v3 queue whose agents would be called inbox, tasks or archive.
    const claimedDirs = new Set(claimed.flatMap((c) => c.layout.watchDirs));
    for (const adapter of ADAPTERS) {
      const reader = await adapter.open(root);
      if (!reader || reader.watchDirs.some((d) => claimedDirs.has(d))) continue;
      found = true;
      sources.push({ id: `${name}-${adapter.protocol}`, protocol: adapter.protocol, root, reader, error: null });
    }
    for (const entries of claimed) {
      found = true;
      sources.push({ id: entries.id, protocol: entries.protocol, root, reader: null, entries, error: null });
    }
    if (!found) {
      sources.push({
        id: `${name}-ignite`,
        protocol: "ignite",
        root,
        reader: null,
        error: `no message queue found in ${root} (looked for ${LOOKED_FOR}). Is MAILROOM_ROOT the workspace folder?`,
      });
    }
  }
  return sources;
}
