// shogun statuses: an inbox message is unread or read (its own `read` flag); commands, tasks
// and reports carry the words their YAML uses. Pure.
import type { Entry, StatusDefinition } from "@/lib/protocols/entries";

export const STATUSES: readonly StatusDefinition[] = [
  { id: "unread", label: "Unread", state: "open", tone: "blue", help: "In an inbox, not read yet" },
  { id: "read", label: "Read", state: "done", tone: "neutral", help: "In an inbox, read" },
  // commands
  { id: "pending", label: "Pending", state: "open", tone: "sky", help: "A command no one has started yet" },
  { id: "in_progress", label: "In progress", state: "open", tone: "violet", help: "Being worked on, not finished yet" },
  { id: "paused", label: "Paused", state: "open", tone: "amber", help: "Work on it stopped until someone resumes it" },
  { id: "done", label: "Done", state: "done", tone: "emerald", help: "Finished, as its file says" },
  { id: "cancelled", label: "Cancelled", state: "done", tone: "neutral", help: "Called off before it was finished" },
  // tasks and reports
  { id: "assigned", label: "Assigned", state: "open", tone: "sky", help: "Handed to a worker, not started yet" },
  { id: "blocked", label: "Blocked", state: "open", tone: "orange", help: "Waiting on something else before work can go on" },
  { id: "idle", label: "Idle", state: "done", tone: "neutral", help: "The worker has nothing to do" },
  { id: "failed", label: "Failed", state: "failed", tone: "red", help: "The worker reported it could not finish" },
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
    // A report names its task by a link (it has no id of its own).
    const task = e.type === "report" ? (e.links.find((l) => l.kind === "replies")?.targetId ?? null) : e.messageId;
    if (e.kind === "document" && (e.type === "task" || e.type === "report") && task && e.threadKey) commandOfTask.set(task, e.threadKey);
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
