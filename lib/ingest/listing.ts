import "server-only";
import type { FoundFile, SourceReader } from "@/lib/protocols";
import { toRelPath, type ListOptions } from "@/lib/protocols/fs-safe";

/** A folder of a source that is there but could not be read (EACCES, EIO), root-relative. */
export interface UnreadableDir {
  relPath: string;
  code: string;
}

/** A source's files as listed, and the folders the listing could not read (whose files it could not see). */
export interface SourceListing {
  files: FoundFile[];
  unreadable: UnreadableDir[];
}

/** List a source's tree, noting the folders it could not read. */
export async function listSource(
  root: string,
  reader: SourceReader,
  opts: Pick<ListOptions, "stat" | "onListed" | "onDir" | "sync" | "share" | "plainFiles"> = {},
): Promise<SourceListing> {
  const unreadable: UnreadableDir[] = [];
  const files = await reader.list({ ...opts, onUnreadable: (dir, code) => unreadable.push({ relPath: toRelPath(root, dir), code }) });
  return { files, unreadable };
}

/**
 * Whether a path lies in a folder the listing could not read: not listed, yet maybe there. Such a
 * file is neither gone nor moved until its folder can be read again.
 */
export function underUnreadable(unreadable: readonly UnreadableDir[]): (relPath: string) => boolean {
  if (unreadable.length === 0) return () => false;
  return (p) => unreadable.some((d) => d.relPath === "" || p === d.relPath || p.startsWith(`${d.relPath}/`));
}

/** The source's problem, in words a user can act on; null when every folder could be read. */
export function describeUnreadable(unreadable: readonly UnreadableDir[]): string | null {
  if (unreadable.length === 0) return null;
  const folders = [...new Set(unreadable.map((d) => `${d.relPath || "."}/ (${d.code})`))].sort();
  const shown = folders.length > 5 ? [...folders.slice(0, 5), `and ${folders.length - 5} more`] : folders;
  return `Some folders could not be read: ${shown.join(", ")}. ` +
    "Their messages are kept as they were, not counted as deleted, until the folders can be read again.";
}

/** The source's agents, or null when the folder that holds them cannot be read (they are then left as they were). */
export async function agentsOrNull(reader: SourceReader): Promise<string[] | null> {
  try {
    return await reader.agents();
  } catch (err) {
    console.error(`[mailroom] could not list the agents of ${reader.root}:`, err);
    return null;
  }
}
