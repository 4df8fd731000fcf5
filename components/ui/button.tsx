import { cn } from "./cn";

/** Class names for buttons and button-like links, so both look the same. */
export function buttonClass(variant: "primary" | "secondary" | "ghost" = "secondary", className?: string): string {
  return cn(
    "inline-flex items-center justify-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-medium transition-colors",
    "disabled:cursor-not-allowed disabled:opacity-50 aria-disabled:cursor-not-allowed aria-disabled:opacity-50",
    variant === "primary" && "bg-zinc-900 text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-white",
    variant === "secondary" &&
      "border border-zinc-300 bg-white text-zinc-800 hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800",
    variant === "ghost" && "text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800",
    className,
  );
}

/**
 * A button's props while it may not be pressed: aria-disabled, its click ignored. Not `disabled`:
 * a focused button that turns disabled (a request under way, a replay at its first step) drops the
 * focus to the page's body, and a screen reader loses its place there.
 */
export function usableIf(usable: boolean, onClick: () => void): { "aria-disabled"?: true; onClick: () => void } {
  return usable ? { onClick } : { "aria-disabled": true, onClick: () => undefined };
}
