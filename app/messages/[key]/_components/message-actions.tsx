"use client";

import { useEffect, useId, useRef, useState } from "react";
import { ActionStatus } from "@/components/actions/action-status";
import { QueuePicker } from "@/components/actions/queue-picker";
import { useFocusOnMount } from "@/components/actions/use-focus-on-mount";
import { ReadOnlyNotice } from "@/components/actions/read-only-notice";
import { buttonClass } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { messageActionOutcome, pendingLabel, type ActionFields } from "@/lib/client/message-action";
import { useAction } from "@/lib/client/use-action";
import { useSources } from "@/lib/client/use-sources";
import type { MessageDetail } from "@/lib/model";
import type { ActionDescriptor } from "@/lib/protocols/actions";
import { ConfirmAction } from "./confirm-action";
import { RequeueEditor } from "./requeue-editor";

/** The actions the server offers for the message on screen (its `actions`), each as a button; none decided here. */
export function MessageActions({ message: m, readOnly }: { message: MessageDetail; readOnly: boolean }) {
  const id = useId();
  const { sources } = useSources([]);
  const { run, pending, outcome, clear } = useAction();
  const [editing, setEditing] = useState<ActionDescriptor | null>(null);
  const [confirming, setConfirming] = useState<ActionDescriptor | null>(null);
  const [picked, setPicked] = useState<string | null>(null);
  const done = outcome?.ok === true && !pending;
  // Focus follows the view that replaced the control pressed: the outcome's More actions, or back on the buttons.
  const moreActions = useFocusOnMount<HTMLButtonElement>(done);
  const back = useRef(false);
  const buttons = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Done, the outcome's More actions has it (useFocusOnMount); else the first button once one is enabled.
    if (done) back.current = false;
    if (!back.current || !buttons.current) return;
    const first = buttons.current.querySelector<HTMLButtonElement>("button:not([disabled])");
    first?.focus();
    // Kept only while the buttons wait for an action under way; none to take it: nothing later grabs the focus.
    if (first || pending === null) back.current = false;
  });
  const setBack = (on: boolean) => void (back.current = on);
  if (m.actions.length === 0) return null;
  if (readOnly) return <ReadOnlyNotice />;

  const queued = m.actions.find((a) => a.input !== "none");
  const defaultQueue = queued?.queue ?? null;
  const queue = picked ?? defaultQueue ?? "";
  const to = queue && queue !== defaultQueue ? queue : undefined;
  const queues = sources.find((s) => s.id === m.source)?.agents ?? [];
  const busy = pending !== null;
  const act = (a: ActionDescriptor, fields: ActionFields = {}) => run(pendingLabel(a), () => messageActionOutcome(m.key, a, m.actionCheck, fields));
  const start = (a: ActionDescriptor) => (a.confirm ? setConfirming(a) : void act(a, a.input === "none" ? {} : { to }));

  return (
    <Card>
      <CardHeader title="Actions" />
      <div className="space-y-3 px-4 py-3">
        {/* One status region for the card, always there, so each outcome is announced where it was. */}
        <ActionStatus outcome={outcome} pending={pending} onUndo={done ? (undo) => { setBack(true); void run(undo.label, undo.run); } : undefined} />
        {done ? (
          // Done: the outcome and its undo take the buttons' place until the reader asks for them
          // again, so a second click never lands on the action the new state offers there.
          <button ref={moreActions} type="button" className={buttonClass("ghost")} onClick={() => { clear(); setBack(true); }}>
            More actions
          </button>
        ) : editing ? (
          <RequeueEditor
            original={editing.body ?? ""}
            busy={busy}
            target={queue || null}
            onCancel={() => { setEditing(null); setBack(true); }}
            onRequeue={(body) => void act(editing, { to, body }).then((ok) => ok && setEditing(null))}
          />
        ) : confirming?.confirm ? (
          <ConfirmAction
            warning={confirming.confirm}
            verb={confirming.verb}
            busy={busy}
            onConfirm={() => {
              // A failure shows under the buttons again, the focus with them.
              setBack(true);
              void act(confirming, confirming.input === "none" ? {} : { to }).then(() => setConfirming(null));
            }}
            onCancel={() => { setConfirming(null); setBack(true); }}
          />
        ) : (
          <div ref={buttons} className="flex flex-wrap items-center gap-2">
            {m.actions.map((a, i) => (
              <span key={a.id} className="contents">
                {a.input !== "none" ? <QueuePicker id={`${id}-queue`} value={queue} onChange={setPicked} queues={queues} original={defaultQueue} /> : null}
                <button type="button" className={buttonClass(i === 0 ? "primary" : "secondary")} disabled={busy || (a.input !== "none" && !queue)} onClick={() => start(a)}>
                  {a.verb}
                </button>
                {a.input === "queue+body" ? (
                  <button type="button" className={buttonClass("secondary")} disabled={busy} onClick={() => setEditing(a)}>
                    Edit &amp; {a.verb.toLowerCase()}
                  </button>
                ) : null}
              </span>
            ))}
          </div>
        )}
      </div>
    </Card>
  );
}
