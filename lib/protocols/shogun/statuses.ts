// shogun statuses: an inbox message is unread or read (its own `read` flag); commands, tasks
// and reports carry the words their YAML uses. Pure.
import type { Entry, StatusDefinition } from "@/lib/protocols/entries";

export const STATUSES: readonly StatusDefinition[] = [
  { id: "unread", label: "Unread", state: "open" },
  { id: "read", label: "Read", state: "done" },
  // commands
  { id: "pending", label: "Pending", state: "open" },
  { id: "in_progress", label: "In progress", state: "open" },
  { id: "paused", label: "Paused", state: "open" },
  { id: "done", label: "Done", state: "done" },
  { id: "cancelled", label: "Cancelled", state: "done" },
  // tasks and reports
  { id: "assigned", label: "Assigned", state: "open" },
  { id: "blocked", label: "Blocked", state: "open" },
  { id: "idle", label: "Idle", state: "done" },
  { id: "failed", label: "Failed", state: "failed" },
];

/** Words like `subtask_048a2`: task ids are ASCII, and the Japanese text around them is not. */
const TOKEN = /[A-Za-z0-9_]+/g;

/**
 * Read/unread is per entry, so statuses need nothing else. Threads do: an inbox message that
 * names no `cmd_NNN` but names a task ("subtask_048a QC FAIL") joins that task's command.
 */
export function resolve(entries: readonly Entry[]): Entry[] {
  const commandOfTask = new Map<string, string>();
  for (const e of entries) {
    if (e.kind === "document" && (e.type === "task" || e.type === "report") && e.messageId && e.threadKey) commandOfTask.set(e.messageId, e.threadKey);
  }
  return entries.map((e) => {
    if (e.kind !== "message" || e.threadKey !== null) return e;
    for (const token of e.body.match(TOKEN) ?? []) {
      const command = commandOfTask.get(token);
      if (command) return { ...e, threadKey: command };
    }
    return e;
  });
}
