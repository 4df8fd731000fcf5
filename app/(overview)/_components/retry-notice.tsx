import Link from "next/link";
import { RetryCountdown } from "@/components/retry-countdown";
import { Notice } from "@/components/ui/notice";
import { routes } from "@/lib/client/keys";
import type { AgentStats } from "@/lib/model";
import { countOf } from "@/lib/client/count";

/** Messages back in a queue after a failed delivery, waiting out the retry backoff. */
export function RetryNotice({ agents }: { agents: AgentStats[] }) {
  const waiting = agents.filter((a) => a.retrying > 0);
  const count = waiting.reduce((n, a) => n + a.retrying, 0);
  if (count === 0) return null;
  const next = waiting.map((a) => a.nextRetryAt).filter((t): t is string => t !== null).sort()[0] ?? null;
  return (
    <Notice tone="info" title={`${countOf(count, "message is", "messages are")} waiting to be retried`}>
      <p>
        {waiting.map((a) => a.agent).join(", ")}
        {next ? (
          <>
            {" · next: "}
            <RetryCountdown iso={next} className="font-medium tabular-nums" />
          </>
        ) : null}
        {" · "}
        <Link href={routes.messages("status:retrying")} className="font-medium underline underline-offset-2">
          Show retrying messages
        </Link>
      </p>
    </Notice>
  );
}
