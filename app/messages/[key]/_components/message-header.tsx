import Link from "next/link";
import { MessageFlags } from "@/components/message-flags";
import { ProtocolBadge } from "@/components/protocol-badge";
import { RelativeTime } from "@/components/relative-time";
import { StatusBadge } from "@/components/status-badge";
import { useVocabulary } from "@/lib/client/catalogs";
import { routes } from "@/lib/client/keys";
import { queryTerm } from "@/lib/client/search-params";
import type { MessageDetail } from "@/lib/model";
import type { ReactNode } from "react";
import { TEXT_LINK } from "@/components/ui/text-link";


/**
 * Title line and the message's facts: who, when, where (its thread is named once, by ThreadSection).
 * `showProtocol`: the journal holds more than one protocol, so the title line says which this speaks.
 */
export function MessageHeader({ message: m, showProtocol = false }: { message: MessageDetail; showProtocol?: boolean }) {
  const words = useVocabulary();
  return (
    <header className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="min-w-0 text-xl font-semibold tracking-tight wrap-anywhere">{m.type ?? <span className="italic text-zinc-500 dark:text-zinc-400">no type</span>}</h1>
        <StatusBadge status={m.status} raw={m.rawStatus} protocol={m.protocol} />
        {showProtocol ? <ProtocolBadge protocol={m.protocol} /> : null}
        <MessageFlags message={m} />
      </div>
      <p className="text-sm text-zinc-700 wrap-anywhere dark:text-zinc-300">
        <span className="font-medium">{m.from ?? "unknown sender"}</span>
        <span className="px-1.5 text-zinc-500 dark:text-zinc-400" aria-label="to">→</span>
        <span className="font-medium">{m.to.length ? m.to.join(", ") : "nobody"}</span>
        {m.cc.length ? <span className="text-zinc-500 dark:text-zinc-400"> · cc {m.cc.join(", ")}</span> : null}
        <span className="text-zinc-500 dark:text-zinc-400"> · </span>
        <RelativeTime iso={m.date} variant="both" empty="no date" />
      </p>
      {m.deadLetterOf ? (
        <p className="text-sm">
          Dead letter of{" "}
          <Link href={routes.message(m.deadLetterOf)} className={TEXT_LINK}>
            the original message
          </Link>
        </p>
      ) : null}
      {m.heldBy ? (
        <p className="text-sm">
          Dead-lettered: why it failed is in{" "}
          <Link href={routes.message(m.heldBy)} className={TEXT_LINK}>
            its dead letter
          </Link>
        </p>
      ) : null}
      <dl className="grid gap-x-6 gap-y-1.5 text-sm sm:grid-cols-[max-content_1fr] lg:grid-cols-[max-content_1fr_max-content_1fr]">
        <Fact label="Where">
          {m.path ? (
            <span className="break-all font-mono text-xs">{m.path}</span>
          ) : (
            <span className="text-amber-700 dark:text-amber-400">file gone — from journal</span>
          )}
        </Fact>
        {/* Whose queue, inbox or channel holds it, and which of its folders: every protocol's agent. */}
        <Fact label="Agent">
          <Link href={routes.agent(m.agent)} className={TEXT_LINK}>{m.agent}</Link>
          <span className="text-zinc-500 dark:text-zinc-400"> / {m.folder}</span>
        </Fact>
        <Fact label="In reply to">
          {m.inReplyTo ? <Link href={routes.messages(queryTerm("mid", m.inReplyTo))} className={`${TEXT_LINK} break-all font-mono text-xs`}>{m.inReplyTo}</Link> : null}
        </Fact>
        <Fact label="Repository">
          {m.repository ? <span>{m.repository}{m.issue ? <span className="text-zinc-500 dark:text-zinc-400"> · issue #{m.issue}</span> : null}</span> : m.issue ? <span>issue #{m.issue}</span> : null}
        </Fact>
        <Fact label="Message-ID">{m.messageId ? <span className="break-all font-mono text-xs">{m.messageId}</span> : null}</Fact>
        <Fact label="Priority">{m.priority}</Fact>
        <Fact label="Retries">
          {m.retryCount > 0 ? (
            <span>
              {m.retryCount}
              {/* Only a message still waiting in its queue has a next attempt (a dead one's header keeps the last plan). */}
              {words.waitsForRetry(m.status, m.protocol) && m.path !== null && m.nextRetryAt ? (
                <span className="text-zinc-500 dark:text-zinc-400"> · the file asks for a backoff until <RelativeTime iso={m.nextRetryAt} /></span>
              ) : null}
            </span>
          ) : null}
        </Fact>
        <Fact label="Updated"><RelativeTime iso={m.updatedAt} variant="both" /></Fact>
        <Fact label="Size">{`${m.size.toLocaleString("en-US")} bytes`}</Fact>
      </dl>
    </header>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-zinc-500 dark:text-zinc-400">{label}</dt>
      <dd className="min-w-0 wrap-anywhere">{children ?? <span className="text-zinc-500 dark:text-zinc-400">—</span>}</dd>
    </>
  );
}
