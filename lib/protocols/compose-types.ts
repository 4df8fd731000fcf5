// The compose side of the adapter contract (ProtocolAdapter.compose): the form's words, a checked
// message, a reply's plan and a send's files, nothing written before `write`.
import type { MessageSummary, YamlValue } from "@/lib/model";

/** A compose form's words, as plain data the server hands the form (no protocol code in the browser). */
export interface ComposeVocabulary {
  /** The types to suggest, each with what it is for. */
  types: readonly { type: string; description: string }[];
  priorities: readonly string[];
  /** Type → the body a message of that type starts with (only the types that have one). */
  templates: Readonly<Record<string, string>>;
}

/** One message as compose writes it: checked, trimmed, "" for an optional header left out. */
export interface ComposeMessage {
  from: string;
  to: string[];
  cc: string[];
  type: string;
  priority: string;
  body: string;
  threadId: string;
  inReplyTo: string;
  repository: string;
  issue: string;
}

/** What a reply to a message starts as, and why (`notes`: the choices a user may want to change). */
export interface ReplyPlan extends Omit<ComposeMessage, "cc"> {
  source: string;
  notes: string[];
}

/** What a reply is planned from. */
export type ReplyOriginal = Pick<MessageSummary, "source" | "messageId" | "from" | "to" | "type" | "threadId" | "repository" | "issue"> & {
  data: YamlValue | null;
};

/** One file a send writes (one per recipient), nothing written yet. */
export interface ComposedFile {
  agent: string;
  /** Root-relative, as a dry run shows it (a name taken meanwhile makes the send take the next free one). */
  path: string;
  content: string;
  /** The recipient's queue folder does not exist yet and will be created. */
  newQueue: boolean;
  /** Why no agent may read it there (a send needs confirmWarnings), or null. */
  warning: string | null;
}

export interface ComposePlan {
  files: ComposedFile[];
  /** Write every file, all or nothing (no file is overwritten); the root-relative paths written. */
  write(): Promise<string[]>;
}

/** A workspace opened for compose. */
export interface ComposeTarget {
  /** Recipients without a queue folder (created only when `createQueues`), and why any cannot be written to. */
  checkRecipients(agents: readonly string[], createQueues: boolean): Promise<{ missing: string[]; problem: string | null }>;
  /** One file per recipient, stamped `date`; nothing is written before `write`. */
  plan(message: ComposeMessage, missing: readonly string[], date: Date): Promise<ComposePlan>;
}

export interface OwnCompose {
  vocabulary: ComposeVocabulary;
  /** The protocol's answer to `original`, among these agents. */
  reply(original: ReplyOriginal, agents: readonly string[]): ReplyPlan;
  /** The workspace at `root` (as configured) ready to be written to, or null when it cannot be now. */
  open(root: string): Promise<ComposeTarget | null>;
}
