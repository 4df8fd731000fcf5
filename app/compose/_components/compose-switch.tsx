"use client";

import { useState } from "react";
import { useVocabulary } from "@/lib/client/catalogs";
import { newDraft, type ComposeDraft } from "@/lib/client/compose-draft";
import type { Protocol } from "@/lib/model";
import { composeFormOf } from "@/lib/protocols/compose-forms";
import type { ComposeValues, SourceLists } from "@/lib/protocols/compose-spec";
import type { ComposeVocabulary } from "@/lib/protocols/types";
import { ComposeForm } from "./compose-form";
import { ProtocolForm } from "./protocol-form";

export interface ComposeSourceOption {
  id: string;
  protocol: Protocol;
  lists: SourceLists;
  /** The words of its protocol's own compose form (IGNITE v3's), from the server; null for a wave-2 protocol's form. */
  vocabulary: ComposeVocabulary | null;
}

/** The source shown first, with its form's first values (a reply's prefill) when it has them. */
export interface ComposeStart {
  source: string;
  ignite: ComposeDraft | null;
  values: ComposeValues | null;
  threadNote?: string;
}

/** Pick the source; the form below becomes that protocol's (IGNITE v3's own form, or a wave-2 protocol's). */
export function ComposeSwitch({ sources, start, readOnly }: { sources: ComposeSourceOption[]; start: ComposeStart; readOnly: boolean }) {
  const [sourceId, setSourceId] = useState(start.source);
  const words = useVocabulary();
  const source = sources.find((s) => s.id === sourceId) ?? sources[0];
  if (!source) return null;
  const spec = composeFormOf(source.protocol);
  // The prefill belongs to the source it was made for; another source starts afresh.
  const first = source.id === start.source;
  return (
    <div className="space-y-4">
      {sources.length > 1 ? (
        <div className="space-y-1">
          <label htmlFor="compose-source" className="block text-sm font-medium text-zinc-700 dark:text-zinc-300">Source</label>
          <select id="compose-source" value={source.id} onChange={(e) => setSourceId(e.target.value)} className="rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900">
            {sources.map((s) => <option key={s.id} value={s.id}>{`${s.id} (${words.catalogOf(s.protocol).label})`}</option>)}
          </select>
        </div>
      ) : null}
      {spec ? (
        <ProtocolForm key={source.id} source={source.id} spec={spec} lists={source.lists} initial={(first ? start.values : null) ?? spec.initial(source.lists)} readOnly={readOnly} />
      ) : source.vocabulary ? (
        <ComposeForm
          key={source.id}
          agents={source.lists.agents}
          vocabulary={source.vocabulary}
          initial={(first ? start.ignite : null) ?? newDraft(source.id, source.vocabulary)}
          readOnly={readOnly}
          threadNote={first ? start.threadNote : undefined}
        />
      ) : null}
    </div>
  );
}
