"use client";

import { useDeferredValue, useId, useMemo, useState } from "react";
import { useFocusOnMount } from "@/components/actions/use-focus-on-mount";
import { buttonClass } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { bodyTextProblem, MAX_BODY_BYTES, utf8Bytes, yamlBodyError } from "@/lib/operations/compose-schema";
import { BodyDiff } from "./body-diff";

/** Why the edited body would be refused, said as the reader types (the server checks the same), or null. */
export function problemOf(text: string): string | null {
  if (text.trim() === "") return "The body must not be empty.";
  // The server's limit, said here: past it the editor said "Valid YAML" and the server refused.
  const bytes = utf8Bytes(text);
  if (bytes > MAX_BODY_BYTES) return `The body is ${(bytes / MAX_BODY_BYTES).toFixed(2)} MiB; the limit is 1 MiB.`;
  const characters = bodyTextProblem(text);
  return characters ? `The body ${characters}.` : yamlBodyError(text);
}

/** Edit & requeue: the YAML body in a textarea, checked as you type, with a diff against the original. */
export function RequeueEditor({
  original,
  busy,
  target,
  onRequeue,
  onCancel,
}: {
  original: string;
  busy: boolean;
  /** Where it will go, said next to the button. */
  target: string | null;
  onRequeue: (body: string) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [text, setText] = useState(original);
  const problem = useMemo(() => problemOf(text), [text]);
  const shown = useDeferredValue(text);
  const textarea = useFocusOnMount<HTMLTextAreaElement>();

  return (
    <div
      className="space-y-3"
      data-holds-input
      // Esc closes the editor when nothing was changed; edits are never thrown away by a key.
      onKeyDown={(e) => {
        if (e.key !== "Escape") return;
        e.preventDefault();
        if (text === original && !busy) onCancel();
      }}
    >
      <div className="space-y-1">
        <label htmlFor={`${id}-body`} className="block text-sm font-medium">
          YAML body
        </label>
        <textarea
          ref={textarea}
          id={`${id}-body`}
          value={text}
          onChange={(e) => setText(e.target.value)}
          rows={Math.min(24, Math.max(8, text.split("\n").length + 1))}
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-check`}
          className={cn(
            "w-full rounded-md border bg-white px-3 py-2 font-mono text-xs leading-relaxed outline-none focus:ring-2 focus:ring-sky-500 dark:bg-zinc-950",
            problem ? "border-red-400 dark:border-red-700" : "border-zinc-300 dark:border-zinc-700",
          )}
        />
        <p id={`${id}-check`} role="status" aria-live="polite" className={cn("text-sm", problem ? "text-red-700 dark:text-red-400" : "text-emerald-800 dark:text-emerald-300")}>
          {problem ?? "Valid YAML."}
        </p>
      </div>
      <BodyDiff before={original} after={shown} />
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className={buttonClass("primary")} disabled={busy || problem !== null} onClick={() => onRequeue(text)}>
          Requeue
        </button>
        <button type="button" className={buttonClass("ghost")} onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        {target ? <span className="text-sm text-zinc-500 dark:text-zinc-400">to queue/{target}/</span> : null}
      </div>
    </div>
  );
}
