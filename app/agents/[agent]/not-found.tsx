import Link from "next/link";
import { buttonClass } from "@/components/ui/button";

export default function AgentNotFound() {
  return (
    <div className="mx-auto max-w-lg space-y-3 py-16 text-center">
      <p className="text-sm font-semibold text-sky-700 dark:text-sky-400">404</p>
      <h1 className="text-xl font-semibold">No such agent</h1>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        No workspace has messages for this agent, or a place for them. Agents are listed as soon as their workspace has one.
      </p>
      <div className="flex justify-center pt-2">
        <Link href="/agents" className={buttonClass("primary")}>
          All agents
        </Link>
      </div>
    </div>
  );
}
