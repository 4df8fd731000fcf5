// Runs once when the server starts: stamp how each request arrives (for the loopback rule), check
// the settings and begin reading the workspace into the journal.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { watchArrivals } = await import("./lib/server/arrival");
  watchArrivals();
  const { startIngestOrExit } = await import("./lib/ingest");
  // Serving waits for a first start's scan to list its tree, 1.5 s at most (see lib/ingest/head-start.ts).
  await startIngestOrExit();
}
