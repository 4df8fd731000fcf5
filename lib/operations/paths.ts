// Paths of the files operations write. Root-relative paths have "/" separators, like every path in the journal.
import path from "node:path";
import { ADAPTERS } from "@/lib/protocols";

/** Where a discard puts a file, as its protocol's adapter says; null when none archives it (or it is archived already). */
export function archivePathOf(relPath: string): string | null {
  for (const a of ADAPTERS) {
    const archived = a.fileActions?.archivePathOf(relPath);
    if (archived) return archived;
  }
  return null;
}

/** Where an archived file came from; null for a path outside every protocol's archive. */
export function unarchivePathOf(relPath: string): string | null {
  for (const a of ADAPTERS) {
    const original = a.fileActions?.unarchivePathOf(relPath);
    if (original) return original;
  }
  return null;
}

/** The absolute path ingest knows a root-relative path by (the root as configured, not its realpath). */
export function absoluteFor(root: string, relPath: string): string {
  return path.join(root, ...relPath.split("/"));
}
