import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { routes } from "@/lib/client/keys";
import type { MessageSummary } from "@/lib/model";

/** Reply: opens the compose form prefilled with the protocol's own answer to this message (hidden when read-only). */
export function ReplyLink({ message, readOnly = false }: { message: Pick<MessageSummary, "key">; readOnly?: boolean }) {
  if (readOnly) return null;
  return (
    <div className="flex flex-wrap gap-2">
      <Link href={routes.compose(message.key)} className={buttonClass("secondary")}>
        Reply
      </Link>
    </div>
  );
}
