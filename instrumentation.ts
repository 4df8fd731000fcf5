// Runs once when the server starts: check the settings and begin reading the workspace into the journal.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startIngestOrExit } = await import("./lib/ingest");
  startIngestOrExit();
}
