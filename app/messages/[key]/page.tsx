import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { z } from "zod";
import { MessageView } from "./_components/message-view";
import { routes } from "@/lib/client/keys";
import { getClientConfig, getMessage, holdsSeveralProtocols } from "@/lib/journal";
import { KEY_PATTERN } from "@/lib/model";

const paramsSchema = z.object({ key: z.string().regex(KEY_PATTERN) });

type Props = { params: Promise<{ key: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const parsed = paramsSchema.safeParse(await params);
  const message = parsed.success ? await getMessage(parsed.data.key) : null;
  return { title: message ? `${message.type ?? "message"} from ${message.from ?? "unknown"}` : "Message" };
}

export default async function MessagePage({ params }: Props) {
  await connection();
  const parsed = paramsSchema.safeParse(await params);
  if (!parsed.success) notFound();
  const message = await getMessage(parsed.data.key);
  if (!message) notFound();
  const { pollMs, readOnly } = getClientConfig();

  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm text-zinc-500 dark:text-zinc-400">
        <Link href={routes.messages()} className="hover:underline">Messages</Link>
        <span aria-hidden className="px-1.5">/</span>
        <span aria-current="page" className="break-all font-mono text-xs">{message.key}</span>
      </nav>
      <MessageView initial={message} pollMs={pollMs} readOnly={readOnly} showProtocol={holdsSeveralProtocols()} />
    </div>
  );
}
