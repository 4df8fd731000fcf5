import "server-only";
import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";

/**
 * How a request reached this process, stamped from its socket before Next.js sees it: Next 16
 * hands route handlers and the proxy a Web Request, without the socket, and the Host or
 * X-Forwarded-* headers a client sends prove nothing. Node publishes every request on the
 * `http.server.request.start` channel, with its socket, synchronously before the server's
 * "request" event; a subscriber installed at start (instrumentation.ts) overwrites this header on
 * every request however `next start` was told to listen, so a client cannot forge it, and the
 * guard (guard.ts) refuses what arrived off loopback without a token. No custom server needed.
 */
export const ARRIVAL_HEADER = "x-mailroom-arrival";

/** Headers a reverse proxy adds: a request that carries one did not start on this machine. */
const FORWARDING_HEADERS = ["forwarded", "x-forwarded-for", "x-real-ip"];

const registry = globalThis as typeof globalThis & { __mailroomArrivals?: boolean };

export interface Arrival {
  /**
   * The local address; null for a request that reached the socket before this process began
   * stamping (Next.js runs instrumentation's register() while the first request waits): how it
   * arrived cannot be known.
   */
  localAddress: string | null;
  forwarded: boolean;
}

/** Write the stamp into a request's headers (replacing any a client sent). */
export function stampArrival(request: IncomingMessage, socket: Socket): void {
  const forwarded = FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined);
  request.headers[ARRIVAL_HEADER] = `${socket.localAddress ?? "unknown"}${forwarded ? " forwarded" : ""}`;
}

/** Stamp every request this process serves from now on (once per process). */
export function watchArrivals(): void {
  if (registry.__mailroomArrivals) return;
  subscribe("http.server.request.start", (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    stampArrival(request, socket);
  });
  registry.__mailroomArrivals = true;
}

/**
 * The stamp on a request, or null when this process does not stamp (a handler called directly,
 * as in tests): only then could the header have come from the client, so it is not read.
 */
export function arrivalOf(headers: Headers): Arrival | null {
  if (!registry.__mailroomArrivals) return null;
  const stamp = headers.get(ARRIVAL_HEADER);
  if (stamp === null) return { localAddress: null, forwarded: false };
  const [localAddress, mark] = stamp.split(" ");
  return { localAddress: localAddress || "unknown", forwarded: mark === "forwarded" };
}
