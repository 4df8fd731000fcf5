// The IGNITE (MIME, protocol v3) adapter. The reader touches the filesystem (server only); the
// parsing helpers below it are pure and also exported for the writer and tests. Client code gets
// what it needs of IGNITE (the compose form's words, a reply plan) from the server, as data.
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
export { hasTemplate, templateFor, PRIORITIES, STANDARD_TYPES, type MessageTypeInfo, type TemplateSeed } from "./templates";
export { planReply, type ReplyPlan } from "./reply";
export { actionsFor } from "./actions";
export { assertNoLiveDeadLetter, assertNotRequeuedBefore, assertRequeuedCopyGone } from "./requeued-copy";
