// Where a path sits in an IGNITE v2 (YAML) tree: `queue/<agent>/*.yaml`, `processed/`,
// `queue/dead_letter/`, and Mailroom's discard archive mirroring them. Pure.
import { NAME_PATTERN } from "@/lib/model";
import { isDebris } from "@/lib/protocols/entry-kit";
import type { Place } from "@/lib/protocols/layout";

export const DEAD_LETTER = "dead_letter";
/** Mailroom's discard archive, as in IGNITE v3, but at the workspace root (v2 has no `.ignite/`). */
export const ARCHIVE_PARTS = ["archive", "mailroom"] as const;

/**
 * Names the v2 tools write: `{type}_{16 digits}.yaml` (`_N` on a collision), an escalation's
 * `escalation_{seconds}.yaml` and a dead letter's `{name}_dlq_{seconds}.yaml`. Detection needs
 * one such name; reading takes any `.yaml` in a queue folder, since the monitor renames the rest.
 */
export const V2_MESSAGE_NAME = /^(?:.+_\d{16}(?:_\d+)?|escalation_\d{10,16}|.+_dlq_\d{10})\.yaml$/;

function placeInQueue(parts: readonly string[]): Place | null {
  const [top, agent, third] = parts;
  const file = parts[parts.length - 1];
  if (top !== "queue" || !agent || !file?.endsWith(".yaml") || !NAME_PATTERN.test(agent)) return null;
  if (parts.length === 3) {
    return agent === DEAD_LETTER ? { agent, folder: DEAD_LETTER, role: "inbox" } : { agent, folder: "queue", role: "inbox" };
  }
  if (parts.length === 4 && third === "processed" && agent !== DEAD_LETTER) return { agent, folder: "processed", role: "inbox" };
  return null;
}

export function placeIgniteYaml(relPath: string): Place | null {
  const parts = relPath.split("/");
  if (isDebris(parts)) return null;
  if (parts[0] === ARCHIVE_PARTS[0] && parts[1] === ARCHIVE_PARTS[1]) {
    const inner = placeInQueue(parts.slice(2));
    return inner && { agent: inner.agent, folder: "archive", role: "archive" };
  }
  return placeInQueue(parts);
}
