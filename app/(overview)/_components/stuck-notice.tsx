import Link from "next/link";
import { Notice } from "@/components/ui/notice";
import { routes } from "@/lib/client/keys";
import type { AgentStats } from "@/lib/model";
import { countOf } from "@/lib/client/count";

/** Messages in processing for longer than the stuck timeout, across agents. */
export function StuckNotice({ agents }: { agents: AgentStats[] }) {
  const stuck = agents.reduce((n, a) => n + a.stuck, 0);
  if (stuck === 0) return null;
  return (
    <Notice tone="warning" title={`${countOf(stuck, "message is", "messages are")} stuck`}>
      <p>
        Processing for longer than the timeout.{" "}
        <Link href={routes.messages("is:stuck")} className="font-medium underline underline-offset-2">
          Show stuck messages
        </Link>
      </p>
    </Notice>
  );
}
