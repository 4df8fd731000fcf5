import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { routes } from "@/lib/client/keys";

export default function DocumentNotFound() {
  return (
    <div className="mx-auto max-w-lg space-y-3 py-16 text-center">
      <p className="text-sm font-semibold text-sky-700 dark:text-sky-400">404</p>
      <h1 className="text-xl font-semibold">No such document</h1>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        This workspace has no document by this name now: it may have been deleted, or the link is mistyped.
      </p>
      <div className="flex justify-center pt-2">
        <Link href={routes.logs} className={buttonClass("primary")}>
          Logs and documents
        </Link>
      </div>
    </div>
  );
}
