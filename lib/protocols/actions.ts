// The protocol-neutral contract of actions on an existing message (issue 25 point 1): the server
// says which actions a message offers (`actionsFor`, in each protocol's folder), the UI renders
// exactly those, and one route runs any of them. Pure types and zod: safe for client code too.
import { z } from "zod";
import type { MessageDetail } from "@/lib/model";

/** Every action id any protocol offers; the bulk endpoint and the route accept no other. */
export const ACTION_IDS = ["requeue", "retry", "discard", "restore", "mark-read", "mark-unread", "resend", "abort"] as const;
export type ActionId = (typeof ACTION_IDS)[number];
export const actionIdSchema = z.enum(ACTION_IDS, { error: `must be one of ${ACTION_IDS.join(", ")}` });

/**
 * What an action takes besides the message: nothing; a queue to send it to (`to`); or a queue and
 * optionally an edited body (`to`, `body`: the editor starts from `body` below).
 */
export type ActionInputKind = "none" | "queue" | "queue+body";

export interface ActionDescriptor {
  id: ActionId;
  /** The button's label. */
  verb: string;
  input: ActionInputKind;
  /** Offered on a list of selected messages too (POST /api/bulk takes the same id). */
  bulk: boolean;
  /** A warning the user must confirm before it runs. */
  confirm?: string;
  /** For a queue input: where it goes unless told otherwise (null: the user must choose). */
  queue?: string | null;
  /** For a body input: the text the editor starts from. */
  body?: string;
}

/**
 * What the page echoes back with an action, so the server can answer 409 when the message is no
 * longer what the page showed: the path it was at, and (for a file of many entries) the file's
 * size and inode as the journal last read them.
 */
export interface ActionCheck {
  path?: string;
  /** The file as the journal last read it; no inode while a replaced file is read again. */
  expect?: { size: number; ino?: number };
}

/** What a protocol's `actionsFor` and runner see of a message: its detail, and its id inside its file. */
export type ActionSubject = Pick<
  MessageDetail,
  "key" | "protocol" | "path" | "agent" | "folder" | "status" | "type" | "messageId" | "from" | "to" | "body" | "data" | "heldAgent" | "heldBy"
> & { locator: string };

/** What an action is given besides the message (each protocol checks the fields its action takes). */
export interface ActionInput {
  to?: string;
  body?: string;
  expect?: ActionCheck["expect"];
}

/** A checked action of a many-entry protocol: what it will write, and the write itself (nothing is written before `run`). */
export interface PlannedAction {
  /** One sentence: what will happen to which file. */
  description: string;
  /** Root-relative path of the message's file after the action. */
  path: string;
  /** Root-relative paths the write touches, for ingest to look at right after. */
  touched: string[];
  /** The bytes written (a whole new file, or the line appended). */
  bytes: string;
  warnings: string[];
  /** Root-relative path a file is archived to beside the main move (a requeued dead letter): restorable from there. */
  archives?: string;
  run(): Promise<{ path: string }>;
}

/** A dry run's answer: what would happen, and nothing written. */
export interface ActionDryRun {
  dryRun: true;
  key: string;
  description: string;
  path?: string;
  bytes?: string;
  warnings: string[];
}
