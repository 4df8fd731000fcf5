import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { MarkdownView } from "./_components/markdown-view";
import { Notice } from "@/components/ui/notice";
import { routes } from "@/lib/client/keys";
import { MAX_DOCUMENT_BYTES, readSourceDocument } from "@/lib/ingest/source-state";
import { sourceFileParams } from "@/lib/server/source-params";
import { TEXT_LINK } from "@/components/ui/text-link";

type Props = { params: Promise<{ source: string; name: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const parsed = sourceFileParams.safeParse(await params);
  return { title: parsed.success ? parsed.data.name : "Document" };
}

/** A file the agents keep for people to read (shogun's dashboard.md), as it is on disk now. */
export default async function DocumentPage({ params }: Props) {
  await connection();
  const parsed = sourceFileParams.safeParse(await params);
  if (!parsed.success) notFound();
  const doc = await readSourceDocument(parsed.data.source, parsed.data.name);
  if (!doc) notFound();
  return (
    <div className="space-y-4">
      <div>
        <p className="text-sm text-zinc-500 dark:text-zinc-400">
          Document of {doc.source} · <Link href={routes.logs} className={TEXT_LINK}>all logs and documents</Link>
        </p>
        <h1 className="font-mono text-xl font-semibold tracking-tight">{doc.relPath}</h1>
      </div>
      {doc.text === null ? (
        <Notice tone="warning" title="Too large to show">
          {doc.relPath} is larger than {MAX_DOCUMENT_BYTES / (1024 * 1024)} MiB; Mailroom does not show it.
        </Notice>
      ) : (
        <MarkdownView text={doc.text} />
      )}
    </div>
  );
}
