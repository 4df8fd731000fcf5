"use client";

import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { applySuggestion, complete, type Suggestion } from "@/lib/client/completion";
import { useVocabulary } from "@/lib/client/catalogs";
import { queryProblem } from "@/lib/client/query-problem";
import { focusSearchOnArrival, takeSearchFocus } from "@/lib/client/search-focus";
import { useFacets } from "@/lib/client/use-facets";
import { cn } from "../ui/cn";
import { optionId, SuggestionList } from "./suggestion-list";
import { countOf } from "@/lib/client/count";

const LIST_ID = "q-listbox";
/** A mistake is pointed out once the reader pauses, not at every half-typed word. */
const SETTLE_MS = 600;

/**
 * The search input as a combobox (ARIA 1.2, list autocomplete): it suggests fields and their
 * values for the word under the cursor. ArrowUp/Down pick, Enter or Tab take, Escape closes.
 * It stays a plain `name="q"` input of a GET form, so the form works without JavaScript.
 */
export function SearchBox({ q, error, fixed, children }: { q: string; error: string | null; fixed?: string; children?: ReactNode }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const caret = useRef<number | null>(null);
  const [value, setValue] = useState(q);
  const [cursor, setCursor] = useState(q.length);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [settled, setSettled] = useState(q);
  const [focused, setFocused] = useState(false);
  const { facets } = useFacets(focused);
  const words = useVocabulary();

  const completion = useMemo(() => (open ? complete(value, cursor, facets, words) : null), [open, value, cursor, facets, words]);
  const items = completion?.items ?? [];
  const expanded = items.length > 0;
  const activeId = expanded && active >= 0 && active < items.length ? optionId(LIST_ID, active) : undefined;

  useEffect(() => {
    if (value === settled) return;
    const timer = setTimeout(() => setSettled(value), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [value, settled]);

  // A taken suggestion leaves a space for the next term; the URL gets the query without it.
  useEffect(() => {
    const form = inputRef.current?.form;
    if (!form) return;
    const trim = (e: FormDataEvent) => {
      const q = e.formData.get("q");
      if (typeof q === "string") e.formData.set("q", q.trim());
    };
    // A new search remounts the box (key={q}): the new one takes the focus back, so a mistake is
    // fixed where it was typed. Only then: a search that changes nothing leaves the focus where it
    // is, and no request for a later box to take. By Enter or the button alike (not every browser
    // focuses a clicked button).
    const keepFocus = () => {
      const next = (inputRef.current?.value ?? "").trim();
      if (next !== q) focusSearchOnArrival(new URL(form.action).pathname);
    };
    form.addEventListener("formdata", trim);
    form.addEventListener("submit", keepFocus);
    return () => {
      form.removeEventListener("formdata", trim);
      form.removeEventListener("submit", keepFocus);
    };
  }, [q]);

  // Sent here by a search, or by `/` from a page without a search box (keyboard-shortcuts.tsx).
  useEffect(() => {
    const input = inputRef.current;
    if (!input || !takeSearchFocus(window.location.pathname)) return;
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  }, []);

  // After a suggestion is taken, put the caret where the inserted text ends.
  useLayoutEffect(() => {
    const at = caret.current;
    if (at === null) return;
    caret.current = null;
    inputRef.current?.setSelectionRange(at, at);
  });

  const shownError = value === q ? error : value === settled ? queryProblem(value, words, { fixed }) : null;
  const fromServer = shownError !== null && value === q;

  function take(s: Suggestion | undefined) {
    if (!s || !completion) return;
    const next = applySuggestion(value, completion, s);
    setValue(next.value);
    setCursor(next.cursor);
    caret.current = next.cursor;
    // A field name goes straight on to its values.
    setOpen(s.insert.endsWith(":") || s.insert.endsWith(">"));
    setActive(-1);
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    const n = items.length;
    switch (e.key) {
      case "ArrowDown":
        e.preventDefault();
        if (!expanded) {
          setOpen(true);
          setCursor(e.currentTarget.selectionStart ?? value.length);
          setActive(0);
        } else setActive((a) => (a + 1) % n);
        break;
      case "ArrowUp":
        if (!expanded) return;
        e.preventDefault();
        setActive((a) => (a <= 0 ? n - 1 : a - 1));
        break;
      case "Enter":
        if (activeId) {
          e.preventDefault();
          take(items[active]);
        } else setOpen(false);
        break;
      case "Tab":
        // Tab takes a suggestion only for a word being typed; on an empty word it moves on as usual.
        if (expanded && !e.shiftKey && (activeId || (completion?.from ?? cursor) < cursor)) {
          e.preventDefault();
          take(items[Math.max(active, 0)]);
        }
        break;
      case "Escape":
        // Our Escape: close the list, else leave the box (and not the native "clear the field").
        e.preventDefault();
        e.stopPropagation();
        if (expanded) setOpen(false);
        else e.currentTarget.blur();
        break;
    }
  }

  return (
    <div className="space-y-1.5">
      <div className="flex gap-2">
        <div
          className={cn(
            "relative flex min-w-0 flex-1 items-center rounded-md border bg-white focus-within:ring-2 focus-within:ring-sky-500 dark:bg-zinc-900",
            shownError ? "border-red-400 dark:border-red-700" : "border-zinc-300 dark:border-zinc-700",
          )}
        >
          {fixed ? (
            <span className="ml-2 shrink-0 rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300">
              {fixed}
            </span>
          ) : null}
          <input
            ref={inputRef}
            id="q"
            name="q"
            type="search"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={expanded}
            aria-controls={LIST_ID}
            aria-activedescendant={activeId}
            aria-describedby={shownError ? "q-help q-error" : "q-help"}
            aria-invalid={shownError ? true : undefined}
            value={value}
            onChange={(e) => {
              setValue(e.target.value);
              setCursor(e.target.selectionStart ?? e.target.value.length);
              setOpen(true);
              setActive(-1);
            }}
            onSelect={(e) => {
              const at = e.currentTarget.selectionStart;
              if (at === null || at === cursor) return;
              setCursor(at);
              setActive(-1);
            }}
            onKeyDown={onKeyDown}
            onFocus={() => setFocused(true)}
            onBlur={() => setOpen(false)}
            placeholder='e.g. status:dead   type:task_assignment   "README"'
            autoComplete="off"
            spellCheck={false}
            className="min-w-0 flex-1 bg-transparent px-3 py-1.5 font-mono text-sm outline-none placeholder:text-zinc-400 dark:placeholder:text-zinc-500"
          />
          <SuggestionList id={LIST_ID} items={items} open={expanded} active={active} onPick={take} />
        </div>
        {children}
      </div>
      <p className="sr-only" aria-live="polite">
        {expanded ? `${countOf(items.length, "suggestion")}; use the up and down arrows` : ""}
      </p>
      <div aria-live="polite">
        {shownError ? (
          <p id="q-error" role={fromServer ? "alert" : undefined} className="text-sm text-red-700 dark:text-red-400">
            {shownError}
          </p>
        ) : null}
      </div>
    </div>
  );
}
