"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
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
  return (
    // On a narrow screen the links scroll sideways in the header rather than widening the page.
    <nav aria-label="Main" className="min-w-0 overflow-x-auto">
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
