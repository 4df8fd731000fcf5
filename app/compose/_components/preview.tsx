import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { errorMessage } from "@/lib/client/fetcher";
import type { PreviewFile } from "@/lib/client/compose";
import { ComposeApiError } from "@/lib/client/compose";

interface Props {
  files: PreviewFile[] | undefined;
  error: unknown;
  /** What the form still lacks or gets wrong ("To: at least one recipient is required"): the server is asked only once this is empty. */
  stillToDo: readonly string[];
  pending: boolean;
  /** What is made afresh on Send, so the reader does not expect these exact bytes. */
  note?: string;
  /** The badge of a file with a warning to confirm. */
  warningLabel?: string;
}

/** The exact files a send writes, built by the server (a dry run). */
export function Preview({ files, error, stillToDo, pending, note = "The Message-ID, the Date and the time in the file name are made afresh when you send.", warningLabel = "no agent may read it" }: Props) {
  const blocked = stillToDo.length > 0;
  return (
    <Card className="overflow-hidden">
      <CardHeader title="Preview: the files Send writes">
        {pending && !blocked ? <span className="text-xs text-zinc-500 dark:text-zinc-400">updating…</span> : null}
      </CardHeader>
      <div className="space-y-3 px-4 py-3 text-sm">
        {blocked ? (
          // Named here: a field not yet left is not marked in red, and the reader should not have to guess which.
          <div className="text-zinc-500 dark:text-zinc-400">
            <p>The files show once the form is complete. Still to do:</p>
            <ul className="list-disc pl-5">
              {stillToDo.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </div>
        ) : error && !(error instanceof ComposeApiError && Object.keys(error.fields).length) ? (
          <p className="text-red-700 dark:text-red-400">The preview failed: {errorMessage(error)}</p>
        ) : error ? (
          <p className="text-zinc-500 dark:text-zinc-400">The server refused this message; see the fields marked in red.</p>
        ) : !files ? (
          <p className="text-zinc-500 dark:text-zinc-400">Building the preview…</p>
        ) : (
          <>
            <p className="text-xs text-zinc-500 dark:text-zinc-400">{note}</p>
            {files.map((f) => (
              <figure key={f.path} className="space-y-1">
                <figcaption className="flex flex-wrap items-center gap-2 break-all font-mono text-xs text-zinc-700 dark:text-zinc-300">
                  {f.path}
                  {f.newQueue ? <Badge tone="amber">new queue folder</Badge> : null}
                  {f.warning ? <Badge tone="amber" title={f.warning}>{warningLabel}</Badge> : null}
                </figcaption>
                {(f.notes ?? []).map((n) => <p key={n} className="text-xs text-amber-800 dark:text-amber-300">{n}</p>)}
                <pre className="max-h-96 overflow-auto rounded-md bg-zinc-50 px-3 py-2 font-mono text-xs leading-relaxed whitespace-pre-wrap break-words dark:bg-zinc-950">
                  {f.content}
                </pre>
              </figure>
            ))}
          </>
        )}
      </div>
    </Card>
  );
}
