// Runs once when the server starts: begin reading the workspace into the journal.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startIngest } = await import("./lib/ingest");
  startIngest();
}
