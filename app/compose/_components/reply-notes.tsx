import Link from "next/link";
import { Notice } from "@/components/ui/notice";
import { routes } from "@/lib/client/keys";

/** What the reply was prefilled from, and the choices worth a second look. */
const IGNITE_NOTE = "Recipient, In-Reply-To, thread, repository and issue come from it; the type is the usual answer.";

export function ReplyNotes({ originalKey, summary, notes, prefilled = IGNITE_NOTE }: { originalKey: string; summary: string; notes: string[]; prefilled?: string }) {
  return (
    <Notice tone="info" title="Replying">
      <p>
        To{" "}
        <Link href={routes.message(originalKey)} className="font-medium underline">
          {summary}
        </Link>
        . {prefilled}
      </p>
      {notes.length ? (
        <ul className="list-disc pl-5">
          {notes.map((n) => <li key={n}>{n}</li>)}
        </ul>
      ) : null}
    </Notice>
  );
}
