"use client";

import { useAnnouncement } from "@/lib/client/announcer";

/** The app's one polite live region (see lib/client/announcer.ts): mounted once, in the layout, so it is there before anything is said. */
export function Announcer() {
  const { text, count } = useAnnouncement();
  return (
    <div id="announcer" role="status" aria-live="polite" aria-atomic="true" className="sr-only">
      <p key={count}>{text}</p>
    </div>
  );
}
