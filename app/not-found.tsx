import Link from "next/link";
import { buttonClass } from "@/components/ui/button";

export default function NotFound() {
  return (
    <div className="mx-auto max-w-lg space-y-3 py-16 text-center">
      <p className="text-sm font-semibold text-sky-700 dark:text-sky-400">404</p>
      <h1 className="text-xl font-semibold">There is no page here</h1>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">The address may be mistyped, or the page was moved.</p>
      <div className="flex justify-center gap-2 pt-2">
        <Link href="/" className={buttonClass("primary")}>
          Overview
        </Link>
        <Link href="/messages" className={buttonClass("secondary")}>
          All messages
        </Link>
      </div>
    </div>
  );
}
