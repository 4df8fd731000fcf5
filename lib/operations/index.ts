// Operations: validate, then change the tree through ./fs only (atomic, never overwriting); the
// journal learns of each change through ingest, like any other change on disk.
export { requeueMessage, planRequeue, type RequeueRequest } from "./requeue";
export { retryMessage, planRetry, type RetryRequest } from "./retry";
export { discardMessage, restoreMessage, planDiscard, planRestore, type DiscardRequest } from "./discard";
export { runBulk } from "./bulk";
export { planMessageAction, planIgniteAction, type ActionPlan, type ActionRequest } from "./message-actions";
export type { Plan } from "./finish";
