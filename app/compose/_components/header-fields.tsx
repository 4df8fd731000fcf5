import type { ReactNode } from "react";
import type { ComposeDraft } from "@/lib/client/compose-draft";
import type { ComposeVocabulary } from "@/lib/protocols/types";
import { TextField } from "./field";

interface Props {
  draft: ComposeDraft;
  agents: readonly string[];
  /** The protocol's types and priorities, from the server. */
  vocabulary: ComposeVocabulary;
  error: (field: string) => string | undefined;
  onChange: (patch: Partial<ComposeDraft>) => void;
  onType: (type: string) => void;
  onBlur: (field: string) => void;
  threadNote?: string;
  /** The To field, placed after From, Type and Priority. */
  recipients: ReactNode;
}

/** From, type, priority, the recipients, Cc and the headers that tie a message to a thread and an issue. */
export function HeaderFields({ draft, agents, vocabulary, error, onChange, onType, onBlur, threadNote, recipients }: Props) {
  const typeInfo = vocabulary.types.find((t) => t.type === draft.type.trim());
  const field = (name: keyof ComposeDraft & string, id = name) => ({
    id: `compose-${id}`,
    error: error(name),
    onBlur: () => onBlur(name),
  });
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      <TextField {...field("from")} label="From" value={draft.from} onChange={(from) => onChange({ from })} options={["user", ...agents]} mono />
      <TextField
        {...field("type")}
        label="Type"
        value={draft.type}
        onChange={onType}
        options={vocabulary.types.map((t) => t.type)}
        hint={typeInfo ? typeInfo.description : "A standard type or your own (letters, digits, _ . -)."}
        mono
      />
      <TextField {...field("priority")} label="Priority" value={draft.priority} onChange={(priority) => onChange({ priority })} options={vocabulary.priorities} hint="low, normal, high or critical" mono />
      <div className="sm:col-span-3">{recipients}</div>
      <TextField {...field("cc")} label="Cc" value={draft.cc} onChange={(cc) => onChange({ cc })} hint="Named in the header only; no file is written for them." placeholder="comma-separated" mono className="sm:col-span-3" />
      <TextField {...field("threadId")} label="Thread id" value={draft.threadId} onChange={(threadId) => onChange({ threadId })} hint={threadNote} placeholder="e.g. thr_readme_42" mono />
      <TextField {...field("inReplyTo")} label="In-Reply-To" value={draft.inReplyTo} onChange={(inReplyTo) => onChange({ inReplyTo })} placeholder="<…@ignite.local>" mono className="sm:col-span-2" />
      <TextField {...field("repository")} label="Repository" value={draft.repository} onChange={(repository) => onChange({ repository })} placeholder="owner/repo" mono className="sm:col-span-2" />
      <TextField {...field("issue")} label="Issue" value={draft.issue} onChange={(issue) => onChange({ issue })} placeholder="42" mono />
    </div>
  );
}
