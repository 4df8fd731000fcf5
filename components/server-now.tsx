"use client";

import { createContext, useContext, type ReactNode } from "react";

const ServerNowContext = createContext<number | null>(null);

/**
 * The server's clock as it rendered the page, in ms. It rides in the page, so the server's render
 * and the browser's hydration read the same value: a relative time shows its age from the first
 * paint, and the browser's clock (useNow) changes it by seconds, not its width.
 */
export function ServerNowProvider({ now, children }: { now: number; children: ReactNode }) {
  return <ServerNowContext value={now}>{children}</ServerNowContext>;
}

/** The server's clock when it rendered the page (see ServerNowProvider); null outside one. */
export function useServerNow(): number | null {
  return useContext(ServerNowContext);
}
