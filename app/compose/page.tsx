import type { Metadata } from "next";
import { connection } from "next/server";
import { z } from "zod";
import { Notice } from "@/components/ui/notice";
import { newDraft, replyDraft } from "@/lib/client/compose-draft";
import { getClientConfig, getMessage, listSources } from "@/lib/journal";
import { KEY_PATTERN } from "@/lib/model";
import { planReply } from "@/lib/protocols/ignite";
import { ComposeForm } from "./_components/compose-form";
import { ReplyNotes } from "./_components/reply-notes";

export const metadata: Metadata = { title: "Compose" };

const searchSchema = z.object({ replyTo: z.string().regex(KEY_PATTERN).optional().catch(undefined) });

export default async function ComposePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await connection();
  const { replyTo } = searchSchema.parse(await searchParams);
  const { readOnly } = getClientConfig();
  const sources = listSources().filter((s) => s.protocol === "ignite").map((s) => ({ id: s.id, agents: s.agents }));
  const agentsOf = (id: string) => sources.find((s) => s.id === id)?.agents ?? [];
  const original = replyTo ? await getMessage(replyTo) : null;
  const plan = original && original.protocol === "ignite" ? planReply(original, agentsOf(original.source)) : null;
  const initial = plan ? replyDraft(plan, agentsOf(plan.source)) : newDraft(sources[0]?.id ?? "");
  const newThread = plan && !original?.threadId ? "A new thread id: the original has none." : undefined;

  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold tracking-tight">{plan ? "Reply" : "Compose a message"}</h1>
      {readOnly ? (
        <Notice tone="warning" title="Sending is turned off" role="status">
          <p>Mailroom runs read-only (MAILROOM_READONLY=1), so it writes no files: the form below is for reading only.</p>
        </Notice>
      ) : null}
      {replyTo && !plan ? (
        <Notice tone="warning" title="Nothing to reply to">
          <p>{original ? "Replies are written to IGNITE workspaces only." : `No message has the key ${replyTo}.`} This is a new message.</p>
        </Notice>
      ) : null}
      {plan && original ? (
        <ReplyNotes originalKey={original.key} summary={`${original.type ?? "message"} from ${original.from ?? "unknown"}`} notes={plan.notes} />
      ) : null}
      {sources.length === 0 ? (
        <Notice tone="warning" title="No IGNITE workspace">
          <p>Set MAILROOM_ROOT to a workspace that holds .ignite/queue/ to send messages.</p>
        </Notice>
      ) : (
        <ComposeForm sources={sources} initial={initial} readOnly={readOnly} threadNote={newThread} />
      )}
    </div>
  );
}
