import type { Metadata } from "next";
import { connection } from "next/server";
import { DocumentLinks } from "./_components/document-links";
import { LogTail } from "./_components/log-tail";
import { readSourceLog, sourceDocuments, sourceLogs } from "@/lib/ingest/source-state";
import { getClientConfig } from "@/lib/journal";

export const metadata: Metadata = { title: "Logs" };

export default async function LogsPage() {
  await connection();
  const [sources, documents] = await Promise.all([sourceLogs(), sourceDocuments()]);
  const { pollMs } = getClientConfig();
  const logs = sources.flatMap((s) => s.logs.map((l) => ({ source: s.source, name: l.name })));
  const docs = documents.flatMap((s) => s.documents.map((d) => ({ source: s.source, name: d.name })));
  const multiSource = new Set([...logs, ...docs].map((l) => l.source)).size > 1;
  // The first log's tail drawn with the page; one the server cannot read is the live tail's to explain.
  const first = logs[0];
  const slice = first ? await readSourceLog(first.source, first.name, -1).catch(() => null) : null;
  const start = first && slice ? { ...first, text: slice.text, to: slice.to } : null;
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold tracking-tight">Logs</h1>
      {docs.length > 0 ? <DocumentLinks documents={docs} multiSource={multiSource} /> : null}
      {logs.length === 0 ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">No logs in the workspace (the agents&apos; system writes them to its logs/ folder).</p>
      ) : (
        <LogTail logs={logs} start={start} pollMs={pollMs} multiSource={multiSource} />
      )}
    </div>
  );
}
