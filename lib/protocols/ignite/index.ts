// The IGNITE (MIME, protocol v3) adapter. The reader touches the filesystem (server only); the
// parsing helpers below it are pure and also exported for the writer and tests.
export { openIgnite, findIgniteLayout, type IgniteLayout } from "./reader";
export { igniteAdapter } from "./adapter";
export { placeIgnite } from "./paths";
export { parseIgniteFile, describeIgniteFile, statusFor, type ParseInput } from "./parse";
export {
  parseReference,
  splitHeaderBlock,
  parseHeaderLines,
  headerMap,
  splitAddressList,
  universalNewlines,
  pyStrip,
  HEADER_PREFIX,
  type IgniteReference,
  type HeaderBlock,
} from "./reference";
export { parseDeadLetterBody } from "./dead-letter";
export { rfc2822ToIso, iso8601ToIso, toUtcIso } from "./dates";
export { parseYamlBody } from "./yaml-body";
export { readMessage, headerBoundary } from "./message";
export { buildMessage, messageFileName, newMessageId, isoWithOffset, setHeader, removeHeader, retryBackoffSeconds } from "./build";
export { ARCHIVE_PARTS, DEAD_LETTER } from "./paths";
export { backoffCapSeconds, drawBackoffSeconds, upstreamRetry, upstreamRetryCount } from "./retry";
export * from "./client";
export { actionsFor } from "./actions";
