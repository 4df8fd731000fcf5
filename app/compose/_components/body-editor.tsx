import { buttonClass } from "@/components/ui/button";
import { controlClass, describedBy } from "./field";

interface Props {
  value: string;
  type: string;
  error?: string;
  canUseTemplate: boolean;
  onChange: (value: string) => void;
  onUseTemplate: () => void;
}

/** The YAML body, checked as you type: a mistake is shown with its line and column. */
export function BodyEditor({ value, type, error, canUseTemplate, onChange, onUseTemplate }: Props) {
  return (
    <div className="space-y-1">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <label htmlFor="compose-body" className="block text-sm font-medium text-zinc-700 dark:text-zinc-300">Body (YAML)</label>
        <button type="button" onClick={onUseTemplate} disabled={!canUseTemplate} className={buttonClass("ghost", "py-1 text-xs")}>
          {canUseTemplate ? `Use the ${type} template` : "No template for this type"}
        </button>
      </div>
      <textarea
        id="compose-body"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        rows={16}
        spellCheck={false}
        autoCapitalize="off"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy("compose-body", "hint", error)}
        className={controlClass(error, "font-mono text-xs leading-relaxed")}
      />
      <p id="compose-body-hint" className="text-xs text-zinc-500 dark:text-zinc-400">
        Written as is after the headers: no newline is added at the end. Ctrl+Enter sends.
      </p>
      <p id="compose-body-error" aria-live="polite" className={error ? "text-sm text-red-700 dark:text-red-400" : "text-sm text-emerald-700 dark:text-emerald-400"}>
        {error ?? "Valid YAML."}
      </p>
    </div>
  );
}
