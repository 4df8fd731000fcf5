import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { z } from "zod";
import { ThreadView } from "./_components/thread-view";
import { routes } from "@/lib/client/keys";
import { getClientConfig, getThread } from "@/lib/journal";
import { threadIdSchema } from "@/lib/threads/model";

const paramsSchema = z.object({ id: threadIdSchema });

type Props = { params: Promise<{ id: string }> };

/** The id as given, then percent-decoded: page params may reach us still encoded (e.g. a Thread-ID with `/`). */
function findThread(id: string) {
  let decoded = id;
  try {
    decoded = decodeURIComponent(id);
  } catch {
    // not an encoded id
  }
  return getThread(id) ?? (decoded !== id ? getThread(decoded) : null);
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const parsed = paramsSchema.safeParse(await params);
  return { title: parsed.success ? `Thread ${parsed.data.id}` : "Thread" };
}

export default async function ThreadPage({ params }: Props) {
  await connection();
  const parsed = paramsSchema.safeParse(await params);
  if (!parsed.success) notFound();
  const thread = findThread(parsed.data.id);
  if (!thread) notFound();
  const { pollMs } = getClientConfig();

  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm text-zinc-500 dark:text-zinc-400">
        <Link href={routes.threads()} className="hover:underline">Threads</Link>
        <span aria-hidden className="px-1.5">/</span>
        <span aria-current="page" className="break-all font-mono text-xs">{thread.id}</span>
      </nav>
      <ThreadView initial={thread} pollMs={pollMs} />
    </div>
  );
}
