"use client";

import { EscapeBack } from "@/components/keyboard/escape-back";
import { Card, CardHeader } from "@/components/ui/card";
import { LiveStatus } from "@/components/live-status";
import { Notice } from "@/components/ui/notice";
import { useVocabulary } from "@/lib/client/catalogs";
import { routes } from "@/lib/client/keys";
import { useMessage } from "@/lib/client/use-message";
import type { MessageDetail } from "@/lib/model";
import { BodyView } from "./body-view";
import { HeadersTable } from "./headers-table";
import { HistoryList } from "./history-list";
import { MessageActions } from "./message-actions";
import { MessageHeader } from "./message-header";
import { ReplyLink } from "./reply-link";
import { ThreadSection } from "./thread-section";
import { countOf } from "@/lib/client/count";

/** One message, polled so its status and lifecycle stay current. */
export function MessageView({
  initial,
  pollMs,
  readOnly = false,
  showProtocol = false,
}: {
  initial: MessageDetail;
  pollMs?: number;
  readOnly?: boolean;
  /** The journal holds more than one protocol: the header says which one this message speaks. */
  showProtocol?: boolean;
}) {
  const { message: m, error, gone } = useMessage(initial.key, initial, pollMs);
  const words = useVocabulary();

  return (
    <div className="space-y-5">
      <EscapeBack fallback={routes.messages()} />
      <LiveStatus gone={gone} goneTitle="This message is no longer in the journal" error={error} />
      <MessageHeader message={m} showProtocol={showProtocol} />
      <ThreadSection messageKey={m.key} />
      <ReplyLink message={m} readOnly={readOnly} />
      <MessageActions message={m} readOnly={readOnly} />
      {m.problems.length > 0 ? (
        <Notice tone="warning" title={`${countOf(m.problems.length, "problem")} with this message`}>
          <ul className="list-disc pl-5">
            {m.problems.map((p, i) => (
              <li key={i} className="break-words">{p}</li>
            ))}
          </ul>
        </Notice>
      ) : null}
      <div className="grid items-start gap-5 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-5">
          <Card className="overflow-hidden">
            <BodyView message={m} />
          </Card>
          {words.catalogOf(m.protocol).headers || m.headers.length > 0 ? (
            <Card>
              <CardHeader title="Headers" />
              <HeadersTable headers={m.headers} />
            </Card>
          ) : null}
        </div>
        <Card>
          <CardHeader title="Lifecycle" />
          <div aria-live="polite">
            <HistoryList history={m.history} protocol={m.protocol} />
          </div>
        </Card>
      </div>
    </div>
  );
}
