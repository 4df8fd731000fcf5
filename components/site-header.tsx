import Link from "next/link";
import { DEFAULT_POLL_MS } from "@/lib/client/config";
import type { SourceInfo } from "@/lib/model";
import { LiveControls } from "./live-controls";
import { NavLinks } from "./nav-links";
import { SourceStatus } from "./source-status";

export function SiteHeader({ sources, pollMs }: { sources: SourceInfo[]; pollMs?: number }) {
  return (
    <header className="sticky top-0 z-10 border-b border-zinc-200 bg-white/90 backdrop-blur dark:border-zinc-800 dark:bg-zinc-950/90">
      <div className="mx-auto flex h-12 max-w-[96rem] items-center gap-4 px-4 sm:px-6">
        <Link href="/" className="flex shrink-0 items-center gap-2 rounded-md font-semibold tracking-tight">
          {/* eslint-disable-next-line @next/next/no-img-element -- a tiny static SVG */}
          <img src="/logo.svg" alt="" width={22} height={22} />
          {/* On a phone the logo alone leaves the navigation room; the name stays for screen readers. */}
          <span className="sr-only sm:not-sr-only">Mailroom</span>
        </Link>
        <NavLinks />
        {/* Not shrunk: on a phone the navigation scrolls instead (squeezed, "5 sources" wrapped onto the links). */}
        <div className="ml-auto flex shrink-0 items-center gap-3">
          <SourceStatus initial={sources} pollMs={pollMs} />
          <LiveControls pollMs={pollMs ?? DEFAULT_POLL_MS} />
        </div>
      </div>
    </header>
  );
}
