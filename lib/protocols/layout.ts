// What a wave-2 detector finds in a workspace root, and where a file sits in that layout. Pure
// types, shared by the ignite-yaml, shogun, workflow and kicklang adapters.
import type { Protocol } from "@/lib/model";

export interface Layout {
  protocol: Protocol;
  /** The workspace root, absolute. Every relPath is relative to it. */
  root: string;
  /** Absolute folders to watch (shogun's linked inbox may lie outside the root). */
  watchDirs: string[];
}

/** What a file is in its protocol: the core reads inbox, archive, command, task, report, channel and ack files as entries. */
export type FileRole = "inbox" | "archive" | "command" | "task" | "report" | "channel" | "ack" | "heartbeat" | "registry" | "log";

export interface Place {
  /** Whose queue, inbox or channel it is (a KickLang channel name for a channel file). */
  agent: string;
  /** The protocol's own word for where it sits: queue, processed, dead_letter, inbox, archive, channel, … */
  folder: string;
  role: FileRole;
}
