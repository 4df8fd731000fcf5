import type { Status } from "@/lib/model";
import { Badge, type BadgeTone } from "./ui/badge";

const STATUS: Record<Status, { tone: BadgeTone; help: string }> = {
  queued: { tone: "sky", help: "Waiting in the agent's queue" },
  retrying: { tone: "amber", help: "Back in the queue after a failed delivery; will be retried" },
  processing: { tone: "violet", help: "Picked up by the agent, not finished yet" },
  error: { tone: "red", help: "Failed: the file is marked as an error. Nothing retries it automatically; retry or requeue it by hand" },
  delivered: { tone: "emerald", help: "Delivered and moved to processed/" },
  completed: { tone: "teal", help: "Done: the agent removed the file (kept by the journal)" },
  cleared: { tone: "orange", help: "Removed at once with many other files (a clean-up of the workspace), not completed by its agent; kept by the journal" },
  dead: { tone: "red", help: "Gave up after too many retries (a dead letter exists)" },
  discarded: { tone: "neutral", help: "Discarded by an operator into the archive; restorable while its archived file is there" },
  unread: { tone: "blue", help: "In an inbox, not read yet" },
  read: { tone: "neutral", help: "In an inbox, read" },
  acked: { tone: "emerald", help: "Acknowledged by the receiver" },
  invalid: { tone: "orange", help: "The file could not be read as a message" },
};

const DOT: Record<BadgeTone, string> = {
  neutral: "bg-zinc-400",
  sky: "bg-sky-500",
  blue: "bg-blue-500",
  amber: "bg-amber-500",
  violet: "bg-violet-500",
  emerald: "bg-emerald-500",
  teal: "bg-teal-500",
  red: "bg-red-500",
  orange: "bg-orange-500",
  fuchsia: "bg-fuchsia-500",
};

export function statusTone(status: Status): BadgeTone {
  return STATUS[status].tone;
}

/** A message status, coloured; `raw` is the file's own wording when it differs (e.g. dead_letter). */
export function StatusBadge({ status, raw }: { status: Status; raw?: string | null }) {
  const { tone, help } = STATUS[status];
  const title = raw && raw !== status ? `${help} (file says "${raw}")` : help;
  return (
    <Badge tone={tone} title={title}>
      <span aria-hidden className={`size-1.5 rounded-full ${DOT[tone]}`} />
      {status}
    </Badge>
  );
}
