"use client";

import { useState } from "react";
import { LiveStatus } from "@/components/live-status";
import { MessageTable } from "@/components/timeline/message-table";
import { Card } from "@/components/ui/card";
import { Tabs } from "@/components/ui/tabs";
import { useThread } from "@/lib/client/use-thread";
import type { ThreadDetail } from "@/lib/threads/model";
import { ReplayControls } from "./replay-controls";
import { ReplayContext, ReplayStore } from "@/components/thread/replay-store";
import { SequenceView } from "@/components/thread/sequence-view";
import { ThreadGraph } from "@/components/thread/thread-graph";
import { ThreadHeader } from "./thread-header";

/**
 * One thread, polled so it grows live: graph, sequence and table of the same messages, with a replay.
 * `showProtocol`: the journal holds several protocols, so the thread and its rows say which they speak.
 */
export function ThreadView({ initial, pollMs, showProtocol = false }: { initial: ThreadDetail; pollMs?: number; showProtocol?: boolean }) {
  const { thread, error, gone } = useThread(initial.id, initial, pollMs);
  const [store] = useState(() => new ReplayStore());

  return (
    <ReplayContext value={store}>
      <div className="space-y-4">
        <ThreadHeader thread={thread} showProtocol={showProtocol} />
        <LiveStatus gone={gone} goneTitle="This thread has no messages any more" error={error} />
        <ReplayControls messages={thread.messages} />
        <Card className="overflow-hidden">
          <Tabs
            label="Thread views"
            tabs={[
              { id: "graph", label: "Graph", render: () => <ThreadGraph thread={thread} /> },
              { id: "sequence", label: "Sequence", render: () => <SequenceView thread={thread} /> },
              {
                id: "table",
                label: "Table",
                render: () => <MessageTable items={thread.messages} caption={`Messages of thread ${thread.id}, oldest first`} showProtocol={showProtocol} />,
              },
            ]}
          />
        </Card>
      </div>
    </ReplayContext>
  );
}
