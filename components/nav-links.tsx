"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";
import { cn } from "./ui/cn";

const LINKS = [
  { href: "/", label: "Overview", match: (p: string) => p === "/" },
  // An agent's page is one of the agents /agents lists.
  { href: "/agents", label: "Agents", match: (p: string) => p === "/agents" || p.startsWith("/agents/") },
  { href: "/messages", label: "Messages", match: (p: string) => p.startsWith("/messages") },
  { href: "/threads", label: "Threads", match: (p: string) => p.startsWith("/threads") },
  { href: "/dead-letters", label: "Dead letters", match: (p: string) => p.startsWith("/dead-letters") },
  { href: "/compose", label: "Compose", match: (p: string) => p.startsWith("/compose") },
  { href: "/logs", label: "Logs", match: (p: string) => p.startsWith("/logs") },
  { href: "/present", label: "Present", match: (p: string) => p.startsWith("/present") },
] as const;

export function NavLinks() {
  const pathname = usePathname();
  const nav = useRef<HTMLElement>(null);
  // On a narrow screen the current page's link is scrolled into the strip (sideways only: the page stays where it is).
  useEffect(() => {
    const el = nav.current;
    const current = el?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!el || !current || el.scrollWidth <= el.clientWidth) return;
    const left = current.offsetLeft - el.offsetLeft;
    if (left < el.scrollLeft || left + current.offsetWidth > el.scrollLeft + el.clientWidth) el.scrollLeft = Math.max(0, left - 16);
  }, [pathname]);
  return (
    // On a narrow screen the links scroll sideways in the header rather than widening the page; its
    // right edge fades, so a cut link reads as more to scroll to (at 390 px it read "Overview Agen").
    <nav ref={nav} aria-label="Main" className="min-w-0 overflow-x-auto max-sm:[mask-image:linear-gradient(to_right,#000_calc(100%-1.5rem),transparent)]">
      <ul className="flex items-center gap-1 whitespace-nowrap">
        {LINKS.map(({ href, label, match }) => {
          const current = match(pathname);
          return (
            <li key={href}>
              <Link
                href={href}
                aria-current={current ? "page" : undefined}
                className={cn(
                  "rounded-md px-2.5 py-1.5 text-sm font-medium transition-colors",
                  current
                    ? "bg-zinc-100 text-zinc-900 dark:bg-zinc-800 dark:text-zinc-50"
                    : "text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100",
                )}
              >
                {label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
