"use client";

import { useId, useState } from "react";
import { ActionStatus } from "@/components/actions/action-status";
import { QueuePicker } from "@/components/actions/queue-picker";
import { ReadOnlyNotice } from "@/components/actions/read-only-notice";
import { buttonClass } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { discardOutcome, requeueOutcome, restoreOutcome, retryOutcome } from "@/lib/client/action-outcomes";
import { capabilitiesOf } from "@/lib/client/capabilities";
import { useAction } from "@/lib/client/use-action";
import { useSources } from "@/lib/client/use-sources";
import type { MessageDetail } from "@/lib/model";
import { RequeueEditor } from "./requeue-editor";

/** Requeue (optionally edited), Retry now, Discard and Restore for the message on screen. */
export function MessageActions({ message: m, readOnly }: { message: MessageDetail; readOnly: boolean }) {
  const id = useId();
  const caps = capabilitiesOf(m);
  const { sources } = useSources([]);
  const { run, pending, outcome, clear } = useAction();
  const [editing, setEditing] = useState(false);
  const [picked, setPicked] = useState<string | null>(null);
  if (!caps || (!caps.requeue && !caps.retry && !caps.discard && !caps.restore)) return null;
  if (readOnly) return <ReadOnlyNotice />;

  const queue = picked ?? caps.defaultQueue ?? "";
  const to = queue && queue !== caps.defaultQueue ? queue : undefined;
  const path = caps.path ?? undefined;
  const queues = sources.find((s) => s.id === m.source)?.agents ?? [];
  const busy = pending !== null;

  return (
    <Card>
      <CardHeader title="Actions" />
      <div className="space-y-3 px-4 py-3">
        {outcome?.ok && !pending ? (
          // Done: the outcome and its undo take the buttons' place until the reader asks for them
          // again, so a second click never lands on the action the new state offers there.
          <div className="flex flex-wrap items-center justify-between gap-2">
            <ActionStatus outcome={outcome} pending={pending} onUndo={(undo) => void run(undo.label, undo.run)} />
            <button type="button" className={buttonClass("ghost")} onClick={clear}>
              More actions
            </button>
          </div>
        ) : editing ? (
          <RequeueEditor
            original={caps.originalBody}
            busy={busy}
            target={queue || null}
            onCancel={() => setEditing(false)}
            onRequeue={(body) => void run("Requeuing", () => requeueOutcome(m.key, { to, body, path })).then((ok) => ok && setEditing(false))}
          />
        ) : (
          <div className="flex flex-wrap items-center gap-2">
            {caps.requeue ? (
              <>
                <QueuePicker id={`${id}-queue`} value={queue} onChange={setPicked} queues={queues} original={caps.defaultQueue} />
                <button type="button" className={buttonClass("primary")} disabled={busy || !queue} onClick={() => void run("Requeuing", () => requeueOutcome(m.key, { to, path }))}>
                  Requeue
                </button>
                <button type="button" className={buttonClass("secondary")} disabled={busy} onClick={() => setEditing(true)}>
                  Edit &amp; requeue
                </button>
              </>
            ) : null}
            {caps.retry ? (
              <button type="button" className={buttonClass("secondary")} disabled={busy} onClick={() => void run("Retrying", () => retryOutcome(m.key, path))}>
                Retry now
              </button>
            ) : null}
            {caps.discard ? (
              <button type="button" className={buttonClass("secondary")} disabled={busy} onClick={() => void run("Discarding", () => discardOutcome(m.key, path))}>
                Discard
              </button>
            ) : null}
            {caps.restore ? (
              <button type="button" className={buttonClass("secondary")} disabled={busy} onClick={() => void run("Restoring", () => restoreOutcome(m.key, path))}>
                Restore
              </button>
            ) : null}
          </div>
        )}
        {outcome?.ok && !pending ? null : <ActionStatus outcome={outcome} pending={pending} />}
      </div>
    </Card>
  );
}
