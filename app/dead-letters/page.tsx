import type { Metadata } from "next";
import { connection } from "next/server";
import { ReadOnlyNotice } from "@/components/actions/read-only-notice";
import { DeadLetterPlaces } from "@/components/dead-letter-places";
import { getClientConfig, listDeadLetters, listSources } from "@/lib/journal";
import { VOCABULARY } from "@/lib/protocols";
import { DeadLetters } from "./_components/dead-letters";

export const metadata: Metadata = { title: "Dead letters" };

export default async function DeadLettersPage() {
  await connection();
  const { pollMs, readOnly } = getClientConfig();
  // Each source's own queues: a letter requeues only into its own workspace's queues.
  const queues = Object.fromEntries(listSources().map((s) => [s.id, [...s.agents].sort()]));

  return (
    <div className="space-y-5">
      <div className="space-y-1">
        <h1 className="text-xl font-semibold tracking-tight">Dead letters</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Messages the queue monitor gave up on, still in <DeadLetterPlaces places={VOCABULARY.deadLetterPlaces} />. Requeue one
          to its original queue (or another), edit it first from its page, or discard it to the archive — restorable.
        </p>
      </div>
      {readOnly ? <ReadOnlyNotice /> : null}
      <DeadLetters initial={listDeadLetters()} pollMs={pollMs} readOnly={readOnly} queues={queues} />
    </div>
  );
}
