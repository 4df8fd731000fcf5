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

/** A hash of a root's path, for a name nothing else tells apart. */
const pathHash = (root: string) => createHash("sha256").update(path.resolve(root)).digest("hex").slice(0, 8);

/**
 * Each root's name in its sources' ids (`<name>-<protocol>`), which key its rows in the journal.
 * A root the journal already names (`kept`, see keptNames) keeps that name: adding or removing
 * another root never renames it, which would leave its rows behind under the old id. A new root
 * takes its folder's name when no other root has it; roots of the same name (/srv/team-a/workspace
 * and /srv/team-b/workspace) take as many parent folders as tell them apart ("team-a-workspace"),
 * and a hash of the path where none do. Under one id, two trees' files of the same path were one row.
 */
export function rootNames(roots: readonly string[], kept: ReadonlyMap<string, string> = new Map()): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  const take = (root: string, name: string) => {
    names.set(root, name);
    taken.add(name);
  };
  for (const r of roots) {
    const name = kept.get(r);
    if (name !== undefined && !taken.has(name)) take(r, name);
  }
  const parts = new Map(roots.map((r) => [r, path.resolve(r).split(path.sep).filter(Boolean)]));
  const nameAt = (root: string, depth: number) => slug((parts.get(root) ?? []).slice(-depth).join("-"));
  const byName = new Map<string, string[]>();
  for (const r of roots) if (!names.has(r)) byName.set(nameAt(r, 1), [...(byName.get(nameAt(r, 1)) ?? []), r]);
  // Alone in its name first: a deeper name of another root never takes it.
  for (const [name, group] of byName) if (group.length === 1 && !taken.has(name)) take(group[0] ?? "", name);
  for (const group of byName.values()) {
    const left = group.filter((r) => !names.has(r));
    if (left.length === 0) continue;
    const clear = (depth: number) => new Set(left.map((r) => nameAt(r, depth))).size === left.length && left.every((r) => !taken.has(nameAt(r, depth)));
    const deepest = Math.max(...left.map((r) => parts.get(r)?.length ?? 0));
    let depth = 2;
    while (depth <= deepest && !clear(depth)) depth++;
    // Past the deepest: the whole path, hashed where even that is another's.
    const at = left.map((r) => nameAt(r, depth));
    const alone = at.map((n) => !taken.has(n) && at.filter((o) => o === n).length === 1);
    left.forEach((r, i) => take(r, alone[i] ? (at[i] ?? "") : `${at[i]}-${pathHash(r)}`));
  }
  return names;
}

/** The names the journal's sources give their roots (their ids less `-<protocol>`), for rootNames. */
export function keptNames(sources: readonly { id: string; protocol: string; root: string }[]): Map<string, string> {
  const suffix = (s: { protocol: string }) => `-${s.protocol}`;
  return new Map(sources.filter((s) => s.id.endsWith(suffix(s))).map((s) => [s.root, s.id.slice(0, -suffix(s).length)]));
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

/**
 * Offer each root to each adapter; a root nothing recognises is reported, not dropped. `kept`:
 * the names the journal gives roots it knows (keptNames). A root that is another one reached
 * through a link is left out: its files would be listed twice, as two sources.
 */
export async function discoverSources(configured: string[], kept: ReadonlyMap<string, string> = new Map()): Promise<Source[]> {
  const sources: Source[] = [];
  const real = await Promise.all(configured.map((r) => fs.realpath(r).catch(() => path.resolve(r))));
  const roots = configured.filter((_, i) => real.indexOf(real[i] ?? "") === i);
  const names = rootNames(roots, kept);
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
