/** Recipients no agent may read for (from the preview), and the box that confirms sending anyway. */
export function DeliveryWarnings({ warnings, confirmed, onConfirm }: { warnings: string[]; confirmed: boolean; onConfirm: (v: boolean) => void }) {
  if (warnings.length === 0) return null;
  return (
    <div role="alert" className="space-y-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-600/25 dark:bg-amber-950/40 dark:text-amber-200">
      <ul className="list-disc space-y-1 pl-5">
        {warnings.map((w) => <li key={w}>{w}</li>)}
      </ul>
      <label className="flex items-center gap-2 font-medium">
        <input type="checkbox" checked={confirmed} onChange={(e) => onConfirm(e.target.checked)} className="accent-amber-600" />
        Send anyway
      </label>
    </div>
  );
}
