import type { MessageSummary } from "@/lib/model";
import { BACKOFF_HELP, RetryCountdown } from "./retry-countdown";
import { Badge } from "./ui/badge";
import { cn } from "./ui/cn";
import { useVocabulary } from "@/lib/client/catalogs";
import { countOf } from "@/lib/client/count";

type Flagged = Pick<MessageSummary, "stuck" | "problems" | "duplicate" | "retryCount" | "path"> &
  Partial<Pick<MessageSummary, "status" | "protocol" | "nextRetryAt">>;

/** Small flags for what needs attention: stuck, problems, duplicate, retries, file gone. */
export function MessageFlags({
  message,
  showGone = false,
  wrap = true,
  className,
}: {
  message: Flagged;
  showGone?: boolean;
  wrap?: boolean;
  className?: string;
}) {
  const { stuck, problems, duplicate, retryCount, path } = message;
  const gone = showGone && path === null;
  const words = useVocabulary();
  const waitsForRetry = message.status !== undefined && words.waitsForRetry(message.status, message.protocol);
  const waiting = waitsForRetry && path !== null ? (message.nextRetryAt ?? null) : null;
  if (!stuck && problems.length === 0 && !duplicate && retryCount === 0 && !gone && !waiting) return null;
  return (
    <span className={cn("inline-flex gap-1", wrap && "flex-wrap", className)}>
      {stuck ? (
        <Badge tone="red" title="Processing for longer than the stuck timeout">
          <svg aria-hidden viewBox="0 0 16 16" className="size-3 fill-current">
            <path d="M8 1.5a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13ZM8.75 4v3.69l2.28 2.28-1.06 1.06L7.25 8.31V4h1.5Z" />
          </svg>
          stuck
        </Badge>
      ) : null}
      {problems.length > 0 ? (
        <Badge tone="orange" title={problems.join("\n")}>
          {countOf(problems.length, "problem")}
        </Badge>
      ) : null}
      {duplicate ? (
        <Badge tone="fuchsia" title="Another file with the same Message-ID exists at the same time">
          duplicate
        </Badge>
      ) : null}
      {retryCount > 0 ? (
        <Badge tone="amber" title={`Retried ${countOf(retryCount, "time")}`}>
          {`retry ${retryCount}`}
        </Badge>
      ) : null}
      {waiting ? (
        <Badge tone="amber" title={BACKOFF_HELP}>
          <RetryCountdown iso={waiting} />
        </Badge>
      ) : null}
      {gone ? (
        <Badge title="The file is gone from disk; shown from the journal">file gone</Badge>
      ) : null}
    </span>
  );
}
