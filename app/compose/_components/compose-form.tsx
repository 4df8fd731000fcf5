"use client";

import { useMemo, useState } from "react";
import { buttonClass } from "@/components/ui/button";
import { ComposeApiError } from "@/lib/client/compose";
import { draftToRequest, fieldsInFormOrder, stillToDo, type ComposeDraft } from "@/lib/client/compose-draft";
import { useComposePreview } from "@/lib/client/use-compose-preview";
import { checkCompose } from "@/lib/operations/compose-schema";
import { templateOf, unchangedTemplateWarning } from "@/lib/protocols/compose-spec";
import type { ComposeVocabulary } from "@/lib/protocols/types";
import { BodyEditor } from "./body-editor";
import { DeliveryWarnings } from "./delivery-warnings";
import { HeaderFields } from "./header-fields";
import { Preview } from "./preview";
import { Recipients } from "./recipients";
import { SendResult } from "./send-result";
import { useComposeSubmit } from "./use-compose-submit";

interface Props {
  /** The workspace's agents (the page's Source picks the workspace, `initial.source`). */
  agents: readonly string[];
  /** The protocol's types, priorities and templates, from the server. */
  vocabulary: ComposeVocabulary;
  initial: ComposeDraft;
  readOnly: boolean;
  threadNote?: string;
}

/** Where focus goes for a field's error (the first control of the field). */
const FOCUS: Record<string, string> = { to: "compose-to-other", request: "compose-from" };

/** The compose form: checks as you type, a server-built preview, and Send (one file per recipient). */
export function ComposeForm({ agents, vocabulary, initial, readOnly, threadNote }: Props) {
  const [draft, setDraft] = useState(initial);
  // As the form opened: the page may hand a new `initial` object at each render.
  const [opened] = useState(initial);
  const [lastTemplate, setLastTemplate] = useState(initial.body);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());

  const request = useMemo(() => draftToRequest(draft), [draft]);
  const local = useMemo(() => checkCompose(request).errors, [request]);
  const blocked = Object.keys(local).length > 0;
  const firstInvalid = () => {
    const first = fieldsInFormOrder(errors)[0];
    return blocked && first ? (FOCUS[first] ?? `compose-${first}`) : null;
  };
  const { formRef, submitted, sending, sent, sendError, confirmed, setConfirmed, onSubmit, onKeyDown, edited } = useComposeSubmit({ request, readOnly, firstInvalid });
  const preview = useComposePreview(readOnly || blocked ? null : request);
  const server = sendError instanceof ComposeApiError ? sendError.fields : preview.error instanceof ComposeApiError ? preview.error.fields : {};
  const errors: Record<string, string> = { ...server, ...local };
  // Not on a form just opened, which starts from a template: once anything is filled in.
  const unchanged = draft === opened ? null : unchangedTemplateWarning(draft.type.trim(), draft.body, templateOf(vocabulary, draft.type.trim()));
  const warnings = [...(preview.data ?? []).flatMap((f) => (f.warning ? [f.warning] : [])), ...(unchanged ? [unchanged] : [])];
  const unconfirmed = warnings.length > 0 && !confirmed;
  // The body is checked as you type; other fields once left or on Send; the server's word at once.
  const shown = (field: string) => (submitted || field === "body" || touched.has(field) || field in server ? errors[field] : undefined);

  const touch = (field: string) => setTouched((t) => new Set(t).add(field));
  const hasTemplate = (type: string) => templateOf(vocabulary, type) !== null;
  const templateFor = (type: string) => templateOf(vocabulary, type) ?? "";

  function update(patch: Partial<ComposeDraft>) {
    setDraft((d) => ({ ...d, ...patch }));
    edited();
  }

  function changeType(type: string) {
    const swap = (draft.body.trim() === "" || draft.body === lastTemplate) && hasTemplate(type.trim());
    const body = swap ? templateFor(type.trim()) : draft.body;
    if (swap) setLastTemplate(body);
    update({ type, body });
  }

  function insertTemplate() {
    const body = templateFor(draft.type.trim());
    setLastTemplate(body);
    update({ body });
  }

  return (
    <form ref={formRef} onSubmit={onSubmit} onKeyDown={onKeyDown} noValidate data-holds-input className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <fieldset disabled={readOnly} className="min-w-0 space-y-5">
        <legend className="sr-only">Message</legend>
        <HeaderFields
          draft={draft}
          agents={agents}
          vocabulary={vocabulary}
          error={shown}
          onChange={update}
          onType={changeType}
          onBlur={touch}
          threadNote={threadNote}
          recipients={
            <Recipients
              agents={agents}
              picked={draft.to}
              other={draft.otherTo}
              createQueues={draft.createQueues}
              error={shown("to")}
              onPick={(to) => update({ to })}
              onOther={(otherTo) => update({ otherTo })}
              onCreateQueues={(createQueues) => update({ createQueues })}
              onBlur={() => touch("to")}
            />
          }
        />
        <BodyEditor value={draft.body} type={draft.type.trim()} error={shown("body")} canUseTemplate={hasTemplate(draft.type.trim())} onChange={(body) => update({ body })} onUseTemplate={insertTemplate} />
        {shown("source") ? <p className="text-sm text-red-700 dark:text-red-400">Workspace: {shown("source")}</p> : null}
        {readOnly ? null : <DeliveryWarnings warnings={warnings} confirmed={confirmed} onConfirm={setConfirmed} />}
        {readOnly ? null : (
          <div className="flex flex-wrap items-center gap-3">
            <button type="submit" disabled={sending || sent !== null || unconfirmed} className={buttonClass("primary")}>
              {sending ? "Sending…" : "Send"}
            </button>
            <span className="text-xs text-zinc-500 dark:text-zinc-400">
              {request.to.length > 1 ? `${request.to.length} files, one per recipient` : "One file in the recipient's queue"}
            </span>
          </div>
        )}
        <SendResult sent={sent} error={sendError} threadId={request.threadId ?? ""} />
      </fieldset>
      {readOnly ? null : <Preview files={preview.data} error={preview.error} stillToDo={stillToDo(local)} pending={preview.pending} />}
    </form>
  );
}
