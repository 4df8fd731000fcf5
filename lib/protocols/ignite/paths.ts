// Where a path sits in an IGNITE runtime directory (docs/protocols/ignite-mime.md "Where files live"). Pure.
import { NAME_PATTERN } from "@/lib/model";
import type { Placement } from "@/lib/protocols/types";

export const DEAD_LETTER = "dead_letter";
/** Mailroom's discard archive, inside the runtime directory; it mirrors the queue's paths. */
export const ARCHIVE_PARTS = ["archive", "mailroom"] as const;

/**
 * `queue/<agent>/<file>.mime`, `queue/<agent>/processed/<file>.mime`, `queue/dead_letter/<file>.mime`,
 * and `queue/<agent>/<file>.yaml`: a v2 message the monitor has yet to convert.
 */
function placeInQueue(parts: readonly string[]): Placement | null {
  const [top, agent, third] = parts;
  const file = parts[parts.length - 1];
  if (top !== "queue" || !agent || !NAME_PATTERN.test(agent)) return null;
  // A v2 message in a v3 queue, until the queue monitor converts it (see parse.ts readV2Message).
  if (parts.length === 3 && file?.endsWith(".yaml") && agent !== DEAD_LETTER) return { agent, folder: "queue" };
  if (!file?.endsWith(".mime")) return null;
  if (parts.length === 3) return { agent, folder: agent === DEAD_LETTER ? "dead_letter" : "queue" };
  if (parts.length === 4 && third === "processed" && agent !== DEAD_LETTER) return { agent, folder: "processed" };
  return null;
}

/**
 * `runtimePrefix` is how the root reaches the runtime directory: ".ignite/" or "" (the root is it).
 * Dotfiles are never messages: that also keeps out the temp files of atomic writes (`.x.mime.tmp-1`).
 */
export function placeIgnite(runtimePrefix: string, relPath: string): Placement | null {
  if (!relPath.startsWith(runtimePrefix)) return null;
  const parts = relPath.slice(runtimePrefix.length).split("/");
  if (parts.some((p) => p === "" || p.startsWith("."))) return null;
  if (parts[0] === ARCHIVE_PARTS[0] && parts[1] === ARCHIVE_PARTS[1]) {
    const inner = placeInQueue(parts.slice(2));
    return inner && { agent: inner.agent, folder: "archive" };
  }
  return placeInQueue(parts);
}

// Where Mailroom's writes go (docs/protocols/ignite-mime.md "What Mailroom writes"). Paths are
// root-relative with "/" separators, like every path in the journal.
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

/** The folder of an agent's queue, root-relative. */
export function queueDir(prefix: string, agent: string): string {
  return `${prefix}queue/${agent}`;
}

/** `<runtime>/queue/<agent>/<name>`. */
export function queuePath(prefix: string, agent: string, name: string): string {
  return `${queueDir(prefix, agent)}/${name}`;
}

/**
 * The name a requeued original goes back under: `original_file` when it names a message the queue
 * monitor takes (a `.mime` that is no dotfile), else the dead letter's name without `_dlq_<sec>`.
 * An original_file of "authorized_keys" or "notes.txt" wrote a file no agent ever reads.
 */
export function originalNameOf(deadLetterPath: string, originalFile: string | null): string {
  if (originalFile && /^[^.][^/\\\0]*\.mime$/.test(originalFile)) return originalFile;
  return deadLetterPath.slice(deadLetterPath.lastIndexOf("/") + 1).replace(/_dlq_\d+\.mime$/, ".mime");
}
