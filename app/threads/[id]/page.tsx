import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { ThreadView } from "./_components/thread-view";
import { routes } from "@/lib/client/keys";
import { getClientConfig, getThread, holdsSeveralProtocols, threadIdAt } from "@/lib/journal";
import { threadParamSchema } from "@/lib/threads/params";

type Props = { params: Promise<{ id: string }> };

/** The param decoded once more, or null. */
function decoded(param: string): string | null {
  try {
    return decodeURIComponent(param);
  } catch {
    return null;
  }
}

/**
 * The thread the address names (any id the thread list links to), or null. Next.js hands a page
 * its param decoded, as it does a route (so an id holding "%" opens); one that arrives still
 * encoded is tried decoded second.
 */
async function findThread({ params }: Props) {
  const parsed = threadParamSchema.safeParse((await params).id);
  if (!parsed.success) return null;
  const again = decoded(parsed.data);
  const id = threadIdAt(parsed.data) ?? (again === null || again === parsed.data ? null : threadIdAt(again));
  return id === null ? null : getThread(id);
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const thread = await findThread(props);
  return { title: thread ? `Thread ${thread.id.slice(0, 100)}` : "Thread" };
}

export default async function ThreadPage(props: Props) {
  await connection();
  const thread = await findThread(props);
  if (!thread) notFound();
  const { pollMs } = getClientConfig();

  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm text-zinc-500 dark:text-zinc-400">
        <Link href={routes.threads()} className="hover:underline">Threads</Link>
        <span aria-hidden className="px-1.5">/</span>
        <span aria-current="page" className="break-all font-mono text-xs">{thread.id}</span>
      </nav>
      <ThreadView initial={thread} pollMs={pollMs} showProtocol={holdsSeveralProtocols()} />
    </div>
  );
}
