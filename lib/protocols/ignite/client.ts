// IGNITE's pure face, for client components (the compose form, the requeue editor, what a
// message allows): no filesystem and nothing server-only, unlike the index, whose reader reads the
// disk. The index re-exports all of it for server code.
export { hasTemplate, templateFor, PRIORITIES, STANDARD_TYPES, type MessageTypeInfo, type TemplateSeed } from "./templates";
export { planReply, type ReplyPlan } from "./reply";
export { parseYamlBody } from "./yaml-body";
export { parseDeadLetterBody } from "./dead-letter";
export { splitHeaderBlock } from "./reference";
