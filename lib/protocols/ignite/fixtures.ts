// IGNITE's fixtures face: what its own tools write (a message file, the monitor's processing,
// retry and dead-letter rewrites) and the formats those files are checked against, for tests, the
// Playwright suite and the bench to build trees with. Pure: no disk, nothing server-only (the
// Playwright runner loads it as it is). Reached through lib/protocols/fixtures.ts.
export {
  buildMessage,
  buildDeadLetter,
  markProcessing,
  markRetrying,
  messageFileName,
  setHeader,
  getHeader,
  removeHeader,
  rfc2822Date,
} from "./build";
export { parseReference, splitHeaderBlock } from "./reference";
export { parseDeadLetterBody } from "./dead-letter";
export { requeuedText } from "./requeued";
export { nameTimeMs } from "./name-time";
