import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn";

/** `aria-describedby` for a control with an optional hint and error (ids `<id>-hint`, `<id>-error`). */
export function describedBy(id: string, hint?: ReactNode, error?: string): string | undefined {
  return [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
}

export function controlClass(error?: string, className?: string): string {
  return cn(
    "w-full rounded-md border bg-white px-3 py-1.5 text-sm outline-none focus-visible:ring-2 focus-visible:ring-sky-500",
    "disabled:cursor-not-allowed disabled:bg-zinc-50 dark:bg-zinc-900 dark:disabled:bg-zinc-900/50",
    error ? "border-red-400 dark:border-red-700" : "border-zinc-300 dark:border-zinc-700",
    className,
  );
}

export function FieldNote({ id, hint, error }: { id: string; hint?: ReactNode; error?: string }) {
  return (
    <>
      {hint ? <p id={`${id}-hint`} className="text-xs text-zinc-500 dark:text-zinc-400">{hint}</p> : null}
      {error ? <p id={`${id}-error`} className="text-sm text-red-700 dark:text-red-400">{error}</p> : null}
    </>
  );
}

interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  hint?: ReactNode;
  error?: string;
  /** Suggestions (a <datalist>): free text stays allowed. */
  options?: readonly string[];
  placeholder?: string;
  mono?: boolean;
  className?: string;
}

/** A labelled text input with its hint and its error beside it. */
export function TextField({ id, label, value, onChange, onBlur, hint, error, options, placeholder, mono, className }: TextFieldProps) {
  return (
    <div className={cn("space-y-1", className)}>
      <label htmlFor={id} className="block text-sm font-medium text-zinc-700 dark:text-zinc-300">{label}</label>
      <input
        id={id}
        type="text"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
        list={options ? `${id}-options` : undefined}
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        className={controlClass(error, mono ? "font-mono" : undefined)}
      />
      {options ? (
        <datalist id={`${id}-options`}>
          {options.map((o) => <option key={o} value={o} />)}
        </datalist>
      ) : null}
      <FieldNote id={id} hint={hint} error={error} />
    </div>
  );
}
