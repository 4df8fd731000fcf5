import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { routes } from "@/lib/client/keys";

export default function ThreadNotFound() {
  return (
    <div className="mx-auto max-w-xl space-y-3 py-12 text-center">
      <h1 className="text-xl font-semibold">No such thread</h1>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        No journaled message belongs to a thread with this id. Header threads are named by the thread id their messages state; inferred ones look like{" "}
        <code className="font-mono">issue-owner-repo-43</code> or <code className="font-mono">task-task_001</code>.
      </p>
      <Link href={routes.threads()} className={buttonClass("secondary")}>All threads</Link>
    </div>
  );
}
