"use client";

import { useState } from "react";
import { MessageTable } from "@/components/timeline/message-table";
import { Card } from "@/components/ui/card";
import { Notice } from "@/components/ui/notice";
import { Tabs } from "@/components/ui/tabs";
import { errorMessage } from "@/lib/client/fetcher";
import { useThread } from "@/lib/client/use-thread";
import type { ThreadDetail } from "@/lib/threads/model";
import { ReplayControls } from "./replay-controls";
import { ReplayContext, ReplayStore } from "./replay-store";
import { SequenceView } from "./sequence-view";
import { ThreadGraph } from "./thread-graph";
import { ThreadHeader } from "./thread-header";

/** One thread, polled so it grows live: graph, sequence and table of the same messages, with a replay. */
export function ThreadView({ initial, pollMs }: { initial: ThreadDetail; pollMs?: number }) {
  const { thread, error, gone } = useThread(initial.id, initial, pollMs);
  const [store] = useState(() => new ReplayStore());

  return (
    <ReplayContext value={store}>
      <div className="space-y-4">
        <ThreadHeader thread={thread} />
        <div aria-live="polite">
          {gone ? (
            <Notice tone="warning" title="This thread has no messages any more">
              <p>What you see is the last known state.</p>
            </Notice>
          ) : error ? (
            <p className="text-sm text-red-700 dark:text-red-400">Live updates paused: {errorMessage(error)}</p>
          ) : null}
        </div>
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
                render: () => <MessageTable items={thread.messages} caption={`Messages of thread ${thread.id}, oldest first`} />,
              },
            ]}
          />
        </Card>
      </div>
    </ReplayContext>
  );
}
