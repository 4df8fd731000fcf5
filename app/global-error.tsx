"use client";

import "./globals.css";

/** Replaces the root layout when it fails (e.g. the journal cannot be opened). */
export default function GlobalError({ error, retry }: { error: unknown; retry: () => void }) {
  const message = error instanceof Error ? error.message : String(error);
  return (
    <html lang="en">
      <body className="min-h-dvh font-sans">
        <main className="mx-auto max-w-2xl space-y-3 px-6 py-16">
          <title>Mailroom: error</title>
          <h1 className="text-lg font-semibold">Mailroom could not start this page</h1>
          <p className="break-words text-sm text-zinc-600 dark:text-zinc-400">{message}</p>
          <button
            type="button"
            onClick={() => retry()}
            className="rounded-md border border-zinc-300 px-3 py-1.5 text-sm font-medium dark:border-zinc-700"
          >
            Try again
          </button>
        </main>
      </body>
    </html>
  );
}
