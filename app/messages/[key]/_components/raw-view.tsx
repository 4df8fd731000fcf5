"use client";

import { errorMessage } from "@/lib/client/fetcher";
import { useRawMessage } from "@/lib/client/use-message";

/** The file exactly as stored, fetched when this tab opens. */
export function RawView({ messageKey }: { messageKey: string }) {
  const { data, error, isLoading } = useRawMessage(messageKey, true);
  if (error) {
    return (
      <p role="alert" className="px-4 py-6 text-sm text-red-700 dark:text-red-400">
        The raw file could not be loaded: {errorMessage(error)}
      </p>
    );
  }
  if (isLoading || data === undefined) {
    return (
      <p role="status" className="px-4 py-6 text-sm text-zinc-500 dark:text-zinc-400">
        Loading the raw file…
      </p>
    );
  }
  return <Pre text={data} empty="The file is empty (0 bytes)." />;
}

export function Pre({ text, empty }: { text: string; empty: string }) {
  if (text === "") return <p className="px-4 py-6 text-sm italic text-zinc-500 dark:text-zinc-400">{empty}</p>;
  return <pre className="max-h-[70vh] overflow-auto whitespace-pre-wrap break-words px-4 py-3 font-mono text-xs leading-relaxed">{text}</pre>;
}
