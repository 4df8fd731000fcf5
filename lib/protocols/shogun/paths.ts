// Where a path sits in a multi-agent-shogun tree (protocol doc "Inbox", "Other files"). Pure.
import { NAME_PATTERN } from "@/lib/model";
import { isDebris } from "@/lib/protocols/entry-kit";
import type { Place } from "@/lib/protocols/layout";

/** The agents' status board at the workspace root: shown as a document, never read into entries. */
export const DASHBOARD = "dashboard.md";

export function isDashboard(relPath: string): boolean {
  return relPath === DASHBOARD;
}

/** `shogun_to_karo.yaml`; forks name other pairs the same way. */
const COMMANDS = /^([A-Za-z0-9][A-Za-z0-9_.-]*)_to_([A-Za-z0-9][A-Za-z0-9_.-]*)\.yaml$/;
const ARCHIVED_INBOX = /^inbox_([A-Za-z0-9][A-Za-z0-9_.-]*)_\d{14}\.yaml$/;
const ARCHIVED_COMMANDS = /^[A-Za-z0-9][A-Za-z0-9_.-]*_to_([A-Za-z0-9][A-Za-z0-9_.-]*)_\d{14}\.yaml$/;

function named(agent: string | undefined, folder: string, role: Place["role"]): Place | null {
  return agent && NAME_PATTERN.test(agent) ? { agent, folder, role } : null;
}

export function placeShogun(relPath: string): Place | null {
  const parts = relPath.split("/");
  const [top, second, third] = parts;
  if (top !== "queue" || isDebris(parts) || !relPath.endsWith(".yaml")) return null;
  if (parts.length === 2) return named(COMMANDS.exec(second ?? "")?.[2], "queue", "command");
  if (parts.length !== 3 || !third) return null;
  const stem = third.slice(0, -".yaml".length);
  switch (second) {
    case "inbox":
      return named(stem, "inbox", "inbox");
    case "tasks":
      return named(stem, "tasks", "task");
    case "reports":
      // `<worker>_report.yaml`; the file's worker_id says who when it differs.
      return named(stem.replace(/_report$/, ""), "reports", "report");
    case "archive": {
      const inbox = ARCHIVED_INBOX.exec(third)?.[1];
      return inbox ? named(inbox, "archive", "archive") : named(ARCHIVED_COMMANDS.exec(third)?.[1], "archive", "command");
    }
    default:
      return null;
  }
}
