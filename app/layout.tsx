import type { Metadata } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { SiteHeader } from "@/components/site-header";
import { JournalNotice } from "@/components/journal-notice";
import { LiveProvider } from "@/components/live-provider";
import { HydratedMark } from "@/components/hydrated-mark";
import { ServerNowProvider } from "@/components/server-now";
import { Announcer } from "@/components/announcer";
import { KeyboardShortcuts } from "@/components/keyboard/keyboard-shortcuts";
import { CatalogsProvider } from "@/lib/client/catalogs";
import { getClientConfig, getJournalProblem, listSourcesIfOpen } from "@/lib/journal";
import { CATALOGS } from "@/lib/protocols";
import { renderedAt } from "@/lib/server/clock";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Mailroom", template: "%s · Mailroom" },
  description: "A web console for file-based multi-agent message queues.",
  icons: { icon: "/logo.svg" },
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  await connection();
  // A journal that cannot be opened leaves no sources to list; the banner says why, on every page.
  const journal = getJournalProblem();
  const sources = listSourcesIfOpen();
  const { pollMs } = getClientConfig();
  return (
    <html lang="en">
      <body className="min-h-dvh font-sans">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-20 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:shadow dark:focus:bg-zinc-900"
        >
          Skip to content
        </a>
        {/* Every protocol's words, as data (about 7 KB of JSON for the five): client components read them with useVocabulary(). */}
        <CatalogsProvider catalogs={CATALOGS}>
          <ServerNowProvider now={renderedAt()}>
            <LiveProvider pollMs={pollMs}>
              <SiteHeader sources={sources} pollMs={pollMs} />
              <JournalNotice initial={journal} pollMs={pollMs} />
              <main id="main" className="mx-auto max-w-[96rem] px-4 py-6 sm:px-6">
                {children}
              </main>
            </LiveProvider>
          </ServerNowProvider>
        </CatalogsProvider>
        <footer className="mx-auto max-w-[96rem] px-4 pb-6 sm:px-6">
          <KeyboardShortcuts />
        </footer>
        <Announcer />
        <HydratedMark />
      </body>
    </html>
  );
}
