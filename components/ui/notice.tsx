import type { ReactNode } from "react";
import { cn } from "./cn";

const TONES = {
  info: "border-sky-200 bg-sky-50 text-sky-900 dark:border-sky-900/60 dark:bg-sky-950/40 dark:text-sky-100",
  warning: "border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-900/60 dark:bg-amber-950/40 dark:text-amber-100",
  error: "border-red-200 bg-red-50 text-red-900 dark:border-red-900/60 dark:bg-red-950/40 dark:text-red-100",
  neutral: "border-zinc-200 bg-white text-zinc-800 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-200",
} as const;

/** A boxed message: empty states, configuration problems, warnings. */
export function Notice({
  tone = "neutral",
  title,
  role,
  className,
  children,
}: {
  tone?: keyof typeof TONES;
  title: ReactNode;
  role?: "status" | "alert";
  className?: string;
  children?: ReactNode;
}) {
  return (
    <div role={role} className={cn("rounded-lg border px-4 py-3 text-sm", TONES[tone], className)}>
      <p className="font-semibold">{title}</p>
      {children ? <div className="mt-1 space-y-1 leading-relaxed opacity-90">{children}</div> : null}
    </div>
  );
}
