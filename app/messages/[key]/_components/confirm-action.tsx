"use client";

import { buttonClass } from "@/components/ui/button";

/** An action whose protocol warns first (e.g. an abort an agent must obey): the warning, then Confirm or Cancel. */
export function ConfirmAction({ warning, verb, busy, onConfirm, onCancel }: { warning: string; verb: string; busy: boolean; onConfirm: () => void; onCancel: () => void }) {
  return (
    <div role="alertdialog" aria-label={`Confirm: ${verb}`} className="space-y-2">
      <p className="text-sm text-amber-800 dark:text-amber-300">{warning}</p>
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className={buttonClass("primary")} disabled={busy} onClick={onConfirm}>
          Confirm: {verb}
        </button>
        <button type="button" className={buttonClass("ghost")} disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
