import type { Metadata } from "next";
import { connection } from "next/server";
import { z } from "zod";
import { Notice } from "@/components/ui/notice";
import { replyDraft } from "@/lib/client/compose-draft";
import { getClientConfig, getMessage, listSources } from "@/lib/journal";
import { KEY_PATTERN, type MessageDetail, type SourceInfo } from "@/lib/model";
import { composeListsOf } from "@/lib/operations/compose-protocols";
import { adapterFor } from "@/lib/protocols";
import { composeFormOf } from "@/lib/protocols/compose-forms";
import { ComposeSwitch, type ComposeStart } from "./_components/compose-switch";
import { ReplyNotes } from "./_components/reply-notes";

export const metadata: Metadata = { title: "Compose" };

const searchSchema = z.object({ replyTo: z.string().regex(KEY_PATTERN).optional().catch(undefined) });

/** The protocol's own answer to `original`: its own compose's reply plan (IGNITE v3), or the wave-2 form's prefill. */
function replyStart(original: MessageDetail, agentsOf: (id: string) => string[]): (ComposeStart & { notes: string[]; prefilled?: string }) | null {
  const own = adapterFor(original.protocol)?.compose;
  if (own) {
    const plan = own.reply(original, agentsOf(original.source));
    const threadNote = original.threadId ? undefined : "A new thread id: the original has none.";
    return { source: plan.source, ignite: replyDraft(plan, agentsOf(plan.source)), values: null, threadNote, notes: plan.notes };
  }
  const spec = composeFormOf(original.protocol);
  const values = spec?.reply(original) ?? null;
  return values && { source: original.source, ignite: null, values, notes: [], prefilled: spec?.replyNote };
}

export default async function ComposePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await connection();
  const { replyTo } = searchSchema.parse(await searchParams);
  const { readOnly } = getClientConfig();
  // IGNITE v3 first: the form opens on it, as it did before the other protocols could be written.
  const all = listSources().filter((s) => s.error === null || s.protocol === "ignite").sort((a, b) => Number(b.protocol === "ignite") - Number(a.protocol === "ignite"));
  const vocabularyOf = (s: SourceInfo) => adapterFor(s.protocol)?.compose?.vocabulary ?? null;
  const sources = await Promise.all(all.map(async (s) => ({ id: s.id, protocol: s.protocol, lists: await composeListsOf(s), vocabulary: vocabularyOf(s) })));
  const agentsOf = (id: string) => [...(sources.find((s) => s.id === id)?.lists.agents ?? [])];
  const original = replyTo ? await getMessage(replyTo) : null;
  const reply = original ? replyStart(original, agentsOf) : null;
  const start: ComposeStart = reply ?? { source: sources[0]?.id ?? "", ignite: null, values: null };

  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold tracking-tight">{reply ? "Reply" : "Compose a message"}</h1>
      {readOnly ? (
        <Notice tone="warning" title="Sending is turned off" role="status">
          <p>Mailroom runs read-only (MAILROOM_READONLY=1), so it writes no files: the form below is for reading only.</p>
        </Notice>
      ) : null}
      {replyTo && !reply ? (
        <Notice tone="warning" title="Nothing to reply to">
          <p>{original ? "This message names no sender to answer." : `No message has the key ${replyTo}.`} This is a new message.</p>
        </Notice>
      ) : null}
      {reply && original ? <ReplyNotes originalKey={original.key} summary={`${original.type ?? "message"} from ${original.from ?? "unknown"}`} notes={reply.notes} prefilled={reply.prefilled} /> : null}
      {sources.length === 0 ? (
        <Notice tone="warning" title="No workspace">
          <p>Set MAILROOM_ROOT to a workspace (IGNITE, shogun, workflow or KickLang) to send messages.</p>
        </Notice>
      ) : (
        <ComposeSwitch sources={sources} start={start} readOnly={readOnly} />
      )}
    </div>
  );
}
