import Link from "next/link";
import { buttonClass } from "@/components/ui/button";

export default function MessageNotFound() {
  return (
    <div className="mx-auto max-w-lg space-y-3 py-16 text-center">
      <p className="text-sm font-semibold text-sky-700 dark:text-sky-400">404</p>
      <h1 className="text-xl font-semibold">No such message</h1>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        The journal has no message with this key. Keys stay the same while a message moves between folders, so the link
        may be mistyped, or the journal was reset.
      </p>
      <div className="flex justify-center pt-2">
        <Link href="/messages" className={buttonClass("primary")}>
          All messages
        </Link>
      </div>
    </div>
  );
}
