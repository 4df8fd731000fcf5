import { connection } from "next/server";
import { LogTail } from "./_components/log-tail";
import { sourceLogs } from "@/lib/ingest/source-state";
import { getClientConfig } from "@/lib/journal";

export default async function LogsPage() {
  await connection();
  const sources = await sourceLogs();
  const { pollMs } = getClientConfig();
  const logs = sources.flatMap((s) => s.logs.map((l) => ({ source: s.source, name: l.name })));
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold tracking-tight">Logs</h1>
      {logs.length === 0 ? (
        <p className="text-sm text-zinc-500">No logs in the workspace (the agents&apos; system writes them to its logs/ folder).</p>
      ) : (
        <LogTail logs={logs} pollMs={pollMs} multiSource={sources.length > 1} />
      )}
    </div>
  );
}
