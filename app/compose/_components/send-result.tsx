"use client";

import Link from "next/link";
import { useFocusIfLost } from "@/components/actions/use-focus-on-mount";
import { Notice } from "@/components/ui/notice";
import { ComposeApiError, type SentItem } from "@/lib/client/compose";
import { errorMessage } from "@/lib/client/fetcher";
import { routes } from "@/lib/client/keys";
import { queryTerm } from "@/lib/client/search-params";
import { countOf } from "@/lib/client/count";
import { announce } from "@/lib/client/announcer";
import { TEXT_LINK } from "@/components/ui/text-link";

/**
 * What Send did: links to the new messages, or why nothing was written. Send is disabled while it
 * sends and once it has, so the focus it held comes here and a screen reader reads it; focus the
 * reader moved elsewhere meanwhile stays, and the outcome is said through the app's live region.
 * Not a live region itself: it was read twice, once as it changed and once as it took the focus.
 */
export function SendResult({ sent, error, threadId }: { sent: SentItem[] | null; error: unknown; threadId: string }) {
  const title = sent ? `Sent ${countOf(sent.length, "message")}` : "Nothing was sent";
  const result = useFocusIfLost<HTMLDivElement>(sent !== null || Boolean(error), () => announce(`${title}.`));
  return (
    <div ref={result} tabIndex={-1} className="outline-none" data-testid="send-result">
      {sent ? (
        <Notice tone="info" title={title}>
          <ul className="space-y-0.5">
            {sent.map((item) => (
              <li key={item.path} className="break-all font-mono text-xs">
                {item.key ? <Link href={routes.message(item.key)} className={TEXT_LINK}>{item.path}</Link> : item.path}
              </li>
            ))}
          </ul>
          <p>
            <Link href={routes.messages(threadId ? queryTerm("thread", threadId) : undefined)} className={TEXT_LINK}>
              {threadId ? `See thread ${threadId} in the timeline` : "See the timeline"}
            </Link>
          </p>
        </Notice>
      ) : error ? (
        <Notice tone="error" title={title}>
          <p>{error instanceof ComposeApiError && Object.keys(error.fields).length ? "Fix the fields marked in red, then send again." : errorMessage(error)}</p>
        </Notice>
      ) : null}
    </div>
  );
}
