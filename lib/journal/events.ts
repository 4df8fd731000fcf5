import type { Folder, Status } from "@/lib/model";

export interface Place {
  path: string | null;
  folder: Folder;
  status: Status;
  retryCount: number;
}

/** Name the lifecycle step between two observations of one message. */
export function describeMove(before: Place, after: Place): { kind: string; detail: string } {
  const where = `${before.path ?? "(gone)"} → ${after.path ?? "(gone)"}`;
  const statusChange = before.status !== after.status ? ` (${before.status} → ${after.status})` : "";
  // The queue monitor converts a v2 (YAML) message it finds in a v3 queue into MIME, same name.
  if (before.path?.endsWith(".yaml") && after.path?.endsWith(".mime") && before.path.slice(0, -5) === after.path.slice(0, -5)) {
    return { kind: "converted", detail: `converted from IGNITE v2 (YAML) to MIME by the queue monitor: ${where}` };
  }
  if (after.folder === "archive") return { kind: "discarded", detail: `moved to the archive: ${where}` };
  if (before.folder === "archive") return { kind: "restored", detail: `restored from the archive: ${where}${statusChange}` };
  // Dead, or discarded with its dead letter (archived before the requeued file was seen).
  if ((before.status === "dead" || before.status === "discarded") && before.path === null) {
    return { kind: "requeued", detail: `back in ${after.path ?? "?"} as ${after.status}` };
  }
  if (before.folder === "processed" && after.folder === "queue" && after.status === "retrying") {
    return { kind: "retried", detail: `retry ${after.retryCount}: ${where}` };
  }
  return { kind: "moved", detail: `${where}${statusChange}` };
}
