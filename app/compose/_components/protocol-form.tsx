"use client";

import { useMemo, useState } from "react";
import { buttonClass } from "@/components/ui/button";
import { ComposeApiError } from "@/lib/client/compose";
import { useComposePreview } from "@/lib/client/use-compose-preview";
import { checkValues, requestOf, unchangedTemplateWarning, type ComposeFormSpec, type ComposeValues, type SourceLists } from "@/lib/protocols/compose-spec";
import { DeliveryWarnings } from "./delivery-warnings";
import { Preview } from "./preview";
import { ProtocolFields } from "./protocol-fields";
import { SendResult } from "./send-result";
import { useComposeSubmit } from "./use-compose-submit";

interface Props {
  source: string;
  spec: ComposeFormSpec;
  lists: SourceLists;
  initial: ComposeValues;
  readOnly: boolean;
}

/**
 * The compose form of a shogun, workflow, KickLang or IGNITE v2 source: its protocol's fields,
 * checked as you type by the schema the server parses with, the exact bytes from a dry run, a
 * warning to confirm where the protocol has one, and Send.
 */
export function ProtocolForm({ source, spec, lists, initial, readOnly }: Props) {
  const [values, setValues] = useState(initial);
  // As the form opened: the page may hand a new `initial` object at each render.
  const [opened] = useState(initial);
  const bodyField = spec.fields.find((f) => f.kind === "text")?.name ?? "";
  const [lastTemplate, setLastTemplate] = useState(initial[bodyField] ?? "");
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());

  const request = useMemo(() => ({ source, ...requestOf(spec, values) }), [source, spec, values]);
  const local = useMemo(() => checkValues(spec, values), [spec, values]);
  const blocked = Object.keys(local).length > 0;
  const firstInvalid = () => {
    const first = spec.fields.find((f) => errors[f.name]);
    return blocked && first ? `compose-${first.name}` : null;
  };
  const { formRef, submitted, sending, sent, sendError, confirmed, setConfirmed, onSubmit, onKeyDown, edited } = useComposeSubmit({ request, readOnly, firstInvalid });
  // Confirmed, the preview is of what Send then writes (a KickLang envelope gains `confirmed_rules`).
  const preview = useComposePreview(readOnly || blocked ? null : confirmed ? { ...request, confirmWarnings: true } : request);
  const server = sendError instanceof ComposeApiError ? sendError.fields : preview.error instanceof ComposeApiError ? preview.error.fields : {};
  const errors: Record<string, string> = { ...server, ...local };
  const template = spec.template;
  const type = template ? (values[template.typeField] ?? "").trim() : "";
  // Not on a form just opened, which starts from a template: once anything is filled in.
  const unchanged = template && values !== opened ? unchangedTemplateWarning(type, values[template.bodyField] ?? "", template.of(type, lists)) : null;
  // The form's own check at once; the server's word once its preview has it (it may say more: a new inbox or channel).
  const own = spec.warning?.(values) ?? null;
  const said = preview.data?.[0]?.warning ?? null;
  const warnings = [said !== null && (own === null || said.includes(own)) ? said : own, unchanged].filter((w): w is string => w !== null);
  // The body is checked as you type (once typed in: an empty one is no mistake yet); other fields once left or on Send; the server's word at once.
  const typed = (field: string) => field === bodyField && values[field] !== opened[field];
  const shown = (field: string) => (submitted || typed(field) || touched.has(field) || field in server ? errors[field] : undefined);
  const stillToDo = spec.fields.filter((f) => local[f.name]).map((f) => `${f.label}: ${local[f.name]}`);

  function change(name: string, value: string) {
    const patch: ComposeValues = { [name]: value };
    const t = spec.template;
    if (t && name === t.typeField) {
      const body = values[t.bodyField] ?? "";
      const next = t.of(value.trim(), lists);
      if (next !== null && (body.trim() === "" || body === lastTemplate)) {
        patch[t.bodyField] = next;
        setLastTemplate(next);
      }
    }
    setValues((v) => ({ ...v, ...patch }));
    edited();
  }

  function insertTemplate() {
    const t = spec.template;
    const next = t?.of((values[t.typeField] ?? "").trim(), lists);
    if (!t || next == null) return;
    setLastTemplate(next);
    change(t.bodyField, next);
  }

  return (
    <form ref={formRef} onSubmit={onSubmit} onKeyDown={onKeyDown} noValidate data-holds-input className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <fieldset disabled={readOnly} className="min-w-0 space-y-5">
        <legend className="sr-only">Message</legend>
        <ProtocolFields spec={spec} values={values} lists={lists} error={shown} onChange={change} onBlur={(f) => setTouched((t) => new Set(t).add(f))} onUseTemplate={insertTemplate} />
        {shown("request") ? <p className="text-sm text-red-700 dark:text-red-400">{shown("request")}</p> : null}
        {readOnly ? null : <DeliveryWarnings warnings={warnings} confirmed={confirmed} onConfirm={setConfirmed} />}
        {readOnly ? null : (
          <div className="flex flex-wrap items-center gap-3">
            <button type="submit" disabled={sending || sent !== null || (warnings.length > 0 && !confirmed)} className={buttonClass("primary")}>
              {sending ? "Sending…" : "Send"}
            </button>
            <span className="text-xs text-zinc-500 dark:text-zinc-400">{spec.sendNote}</span>
          </div>
        )}
        <SendResult sent={sent} error={sendError} threadId="" />
      </fieldset>
      {readOnly ? null : (
        <Preview files={preview.data} error={preview.error} stillToDo={stillToDo} pending={preview.pending} note="The id and the time are made afresh when you send." warningLabel="to be confirmed" />
      )}
    </form>
  );
}
