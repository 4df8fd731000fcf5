import Link from "next/link";
import { Notice } from "@/components/ui/notice";
import { useVocabulary } from "@/lib/client/catalogs";
import { routes } from "@/lib/client/keys";
import type { AgentStats } from "@/lib/model";
import { countOf } from "@/lib/client/count";
import { overdueWord } from "@/components/agent-columns";

/**
 * Messages past their due time, across agents: IGNITE's stuck in processing for longer than the
 * timeout, other protocols' overdue for an ack or an answer (both are `is:stuck`).
 */
export function StuckNotice({ agents }: { agents: AgentStats[] }) {
  const words = useVocabulary();
  const stuck = agents.reduce((n, a) => n + (overdueWord(words, a.protocol) === "Stuck" ? a.stuck : 0), 0);
  const overdue = agents.reduce((n, a) => n + a.stuck, 0) - stuck;
  if (stuck + overdue === 0) return null;
  const state = overdue === 0 ? "stuck" : stuck === 0 ? "overdue" : "stuck or overdue";
  return (
    <Notice tone="warning" title={`${countOf(stuck + overdue, "message is", "messages are")} ${state}`}>
      <p>
        {stuck > 0 ? "Processing for longer than the timeout. " : null}
        {overdue > 0 ? "Past the time their ack or answer was due. " : null}
        <Link href={routes.messages("is:stuck")} className="font-medium underline underline-offset-2">
          {`Show ${state} messages`}
        </Link>
      </p>
    </Notice>
  );
}
