import "server-only";
import fs from "node:fs/promises";
import path from "node:path";
import type { Protocol } from "@/lib/model";
import { ADAPTERS, type SourceReader } from "@/lib/protocols";

export interface Source {
  id: string;
  protocol: Protocol;
  root: string;
  reader: SourceReader | null;
  /** Why this root cannot be read, in words a user can act on. */
  error: string | null;
}

function slug(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "") || "root";
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

/** Offer each root to each adapter; a root nothing recognises is reported, not dropped. */
export async function discoverSources(roots: string[]): Promise<Source[]> {
  const sources: Source[] = [];
  for (const root of roots) {
    const name = slug(path.basename(root));
    const stat = await fs.stat(root).catch((err: NodeJS.ErrnoException) => err);
    const problem = rootProblem(root, stat);
    if (problem !== null) {
      sources.push({ id: `${name}-ignite`, protocol: "ignite", root, reader: null, error: problem });
      continue;
    }
    let found = false;
    for (const adapter of ADAPTERS) {
      const reader = await adapter.open(root);
      if (!reader) continue;
      found = true;
      sources.push({ id: `${name}-${adapter.protocol}`, protocol: adapter.protocol, root, reader, error: null });
    }
    if (!found) {
      sources.push({
        id: `${name}-ignite`,
        protocol: "ignite",
        root,
        reader: null,
        error: `no message queue found in ${root} (looked for .ignite/queue/ and queue/). Is MAILROOM_ROOT the workspace folder?`,
      });
    }
  }
  return sources;
}
