// Where Mailroom's writes go in an IGNITE runtime directory (docs/protocols/ignite-mime.md "What Mailroom writes").
// Paths are root-relative with "/" separators, like every path in the journal. Pure.
import path from "node:path";
import { ARCHIVE_PARTS, DEAD_LETTER } from "@/lib/protocols/ignite";

const ARCHIVE = `${ARCHIVE_PARTS.join("/")}/`;

/** A root-relative path split into the runtime prefix (".ignite/" or "") and the rest. */
export function splitRuntime(relPath: string): { prefix: string; inner: string } {
  const prefix = relPath.startsWith(".ignite/") ? ".ignite/" : "";
  return { prefix, inner: relPath.slice(prefix.length) };
}

/** `<runtime>/archive/mailroom/<same path relative to the runtime>`; null when already archived. */
export function archivePathOf(relPath: string): string | null {
  const { prefix, inner } = splitRuntime(relPath);
  if (!inner.startsWith("queue/")) return null;
  return `${prefix}${ARCHIVE}${inner}`;
}

/** Where an archived file came from; null for a path outside the archive. */
export function unarchivePathOf(relPath: string): string | null {
  const { prefix, inner } = splitRuntime(relPath);
  if (!inner.startsWith(`${ARCHIVE}queue/`)) return null;
  return `${prefix}${inner.slice(ARCHIVE.length)}`;
}

/** `<runtime>/queue/<agent>/<name>`. */
export function queuePath(prefix: string, agent: string, name: string): string {
  return `${prefix}queue/${agent}/${name}`;
}

/** The folder of an agent's queue, root-relative. */
export function queueDir(prefix: string, agent: string): string {
  return `${prefix}queue/${agent}`;
}

export function isDeadLetterQueue(agent: string): boolean {
  return agent === DEAD_LETTER;
}

/** The file name a dead letter's original had: `original_file`, else the dead letter's name without `_dlq_<sec>`. */
export function originalNameOf(deadLetterPath: string, originalFile: string | null): string {
  if (originalFile) return originalFile;
  return path.posix.basename(deadLetterPath).replace(/_dlq_\d+\.mime$/, ".mime");
}

/** The absolute path ingest knows a root-relative path by (the root as configured, not its realpath). */
export function absoluteFor(root: string, relPath: string): string {
  return path.join(root, ...relPath.split("/"));
}
