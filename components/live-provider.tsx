"use client";

import { useMemo, type ReactNode } from "react";
import { SWRConfig, type Middleware } from "swr";
import { effectiveInterval, useLiveSettings } from "@/lib/client/live";

/**
 * Every poll of the page under the reader's live settings: one SWR middleware rewrites each
 * hook's refreshInterval (none while paused, and no revalidation on focus either: paused means
 * the page holds still), so no hook needs to know about them.
 */
export function LiveProvider({ pollMs, children }: { pollMs: number; children: ReactNode }) {
  const use = useMemo((): Middleware[] => [
    (useSWRNext) =>
      function useLivePoll(key, fetcher, config) {
        const settings = useLiveSettings();
        const own = config.refreshInterval;
        const refreshInterval =
          typeof own === "function" ? (data: Parameters<typeof own>[0]) => effectiveInterval(own(data), pollMs, settings) : effectiveInterval(own ?? 0, pollMs, settings);
        const still = settings.paused ? { revalidateOnFocus: false, revalidateOnReconnect: false } : {};
        return useSWRNext(key, fetcher, { ...config, refreshInterval, ...still });
      },
  ], [pollMs]);
  return <SWRConfig value={{ use }}>{children}</SWRConfig>;
}
