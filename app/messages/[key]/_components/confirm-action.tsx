"use client";

import { useId } from "react";
import { useFocusOnMount } from "@/components/actions/use-focus-on-mount";
import { buttonClass } from "@/components/ui/button";

/** An action whose protocol warns first (e.g. an abort an agent must obey): the warning, then Confirm or Cancel. */
export function ConfirmAction({ warning, verb, busy, onConfirm, onCancel }: { warning: string; verb: string; busy: boolean; onConfirm: () => void; onCancel: () => void }) {
  const id = useId();
  // The least harmful choice takes the focus (the button that opened this is gone).
  const cancel = useFocusOnMount<HTMLButtonElement>();
  return (
    <div
      role="alertdialog"
      aria-label={`Confirm: ${verb}`}
      aria-describedby={`${id}-warning`}
      className="space-y-2"
      // Esc is Cancel, as in a dialog (not the page's "go back").
      onKeyDown={(e) => {
        if (e.key !== "Escape" || busy) return;
        e.preventDefault();
        onCancel();
      }}
    >
      <p id={`${id}-warning`} className="text-sm text-amber-800 dark:text-amber-300">{warning}</p>
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className={buttonClass("primary")} disabled={busy} onClick={onConfirm}>
          Confirm: {verb}
        </button>
        <button ref={cancel} type="button" className={buttonClass("ghost")} disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
