import { cn } from "./cn";

/** Class names for buttons and button-like links, so both look the same. */
export function buttonClass(variant: "primary" | "secondary" | "ghost" = "secondary", className?: string): string {
  return cn(
    "inline-flex items-center justify-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-medium transition-colors",
    "disabled:cursor-not-allowed disabled:opacity-50",
    variant === "primary" && "bg-zinc-900 text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-white",
    variant === "secondary" &&
      "border border-zinc-300 bg-white text-zinc-800 hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800",
    variant === "ghost" && "text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800",
    className,
  );
}
