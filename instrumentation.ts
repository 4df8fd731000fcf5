// Runs once when the server starts: check the settings and begin reading the workspace into the journal.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startIngest } = await import("./lib/ingest");
  const { ConfigError } = await import("./lib/server/config");
  try {
    startIngest();
  } catch (err) {
    // A bad setting stops the server with a message that names it, rather than serving 500s.
    if (!(err instanceof ConfigError)) throw err;
    console.error(`mailroom: ${err.message}`);
    process.exit(2);
  }
}
