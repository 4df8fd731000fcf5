// IGNITE v3's words for the UI: its statuses (what parse.ts's statusFor gives, and what the journal
// marks a message whose file went), folders and overview columns. Pure: safe for client code.
import { SEEN, statusBecame, type ProtocolCatalog } from "@/lib/protocols/catalog-types";

export const IGNITE_CATALOG: ProtocolCatalog = {
  protocol: "ignite",
  label: "IGNITE v3",
  statuses: [
    {
      id: "queued",
      label: "Queued",
      state: "open",
      tone: "sky",
      help: "Waiting in the agent's queue",
      whenGone: "queued, never delivered",
    },
    {
      id: "retrying",
      label: "Retrying",
      state: "open",
      tone: "amber",
      help: "Back in the queue after a failed delivery; will be retried",
      whenGone: "waiting to be retried, never delivered",
    },
    {
      id: "processing",
      label: "Processing",
      state: "open",
      tone: "violet",
      help: "Picked up by the agent, not finished yet",
      whenGone: "processing, never confirmed done",
    },
    {
      id: "error",
      label: "Error",
      state: "failed",
      tone: "red",
      help: "Failed: the file is marked as an error. Nothing retries it automatically; retry or requeue it by hand",
    },
    { id: "delivered", label: "Delivered", state: "done", tone: "emerald", help: "Delivered and moved to processed/" },
    // The journal's words for a message whose file is gone (lib/journal), never a file's own.
    { id: "completed", label: "Completed", state: "done", tone: "teal", help: "Done: the agent removed the file (kept by the journal)" },
    {
      id: "cleared",
      label: "Cleared",
      state: "done",
      tone: "orange",
      help: "Removed at once with many other files (a clean-up of the workspace), not completed by its agent; kept by the journal",
    },
    { id: "dead", label: "Dead", state: "failed", tone: "red", help: "Gave up after too many retries (a dead letter exists)" },
    {
      id: "discarded",
      label: "Discarded",
      state: "done",
      tone: "neutral",
      help: "Discarded by an operator into the archive; restorable while its archived file is there",
      whenGone: "discarded, and its archived copy is gone with it, so it cannot be restored",
    },
    {
      id: "requeued",
      label: "Requeued",
      state: "done",
      tone: "blue",
      help: "A dead letter whose message an operator requeued: archived, so the requeue can be undone",
      whenGone: "requeued, and its archived copy is gone with it",
    },
    { id: "invalid", label: "Invalid", state: "failed", tone: "orange", help: "The file could not be read as a message" },
  ],
  folders: ["queue", "processed", "dead_letter", "archive"],
  workspace: ".ignite/queue/ or queue/ with .mime files",
  // The overview's per-agent columns (components/agent-counts.ts), stuck aside: it is not a status.
  columns: ["queued", "processing", "delivered", "retrying", "dead"],
  overdue: "Stuck",
  oldest: "Oldest queued",
  // Its queue: a processing message is its agent's, not waiting.
  waiting: ["queued", "retrying"],
  retryWaits: ["retrying"],
  working: ["processing"],
  deadLetterStatus: "dead",
  deadLetterPlace: "queue/dead_letter/",
  // state/task_health.json's agent status words for a live agent (health.ts passes them through).
  aliveHealth: ["healthy", "ok", "alive", "active", "completed", "idle"],
  fileLife: { deleted: "completed", cleared: "cleared", discarded: "discarded", archive: "archive", kept: ["invalid", "requeued"], stuck: "processing" },
  headers: true,
  // The monitor moves a delivered file to processed/; the agent deletes it once done with it.
  hops: [
    { id: "delivery", label: "queue → processed", start: SEEN, end: statusBecame("delivered") },
    { id: "handling", label: "processed → gone", start: statusBecame("delivered"), end: { kinds: ["gone"] } },
  ],
};
