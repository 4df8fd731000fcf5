// The presenter view's choices as pure functions: which thread is on screen, which protocol the
// threads are filtered to, what a key press asks for, and which agents light up.
import type { MessagePage, MessageSummary, Protocol } from "@/lib/model";
import { isTypingTarget } from "./selection";
import { compareNewestFirst } from "./timeline";

export type PresenterView = "graph" | "sequence";
export const PRESENTER_VIEWS: readonly PresenterView[] = ["graph", "sequence"];

/** Messages the ticker holds: what fits down a 720 px screen beside the thread, in large type. */
export const TICKER_SIZE = 8;

/** The thread on screen: the pinned one, else the newest active (the list comes newest activity first). */
export function presentedThread(threads: readonly { id: string }[], pinned: string | null): string | null {
  return pinned ?? threads[0]?.id ?? null;
}

/**
 * The thread `delta` places from `current` in the list (wrapping round), to pin it. A current
 * thread that left the list (another protocol, gone) starts from the newest.
 */
export function stepThread(threads: readonly { id: string }[], current: string | null, delta: number): string | null {
  const n = threads.length;
  if (n === 0) return current;
  const at = threads.findIndex((t) => t.id === current);
  if (at < 0) return threads[0]?.id ?? null;
  return threads[(((at + delta) % n) + n) % n]?.id ?? null;
}

/** All protocols (null), then each protocol present in turn, then all again. */
export function nextProtocol(present: readonly Protocol[], current: Protocol | null): Protocol | null {
  if (current === null) return present[0] ?? null;
  const at = present.indexOf(current);
  return at < 0 ? null : (present[at + 1] ?? null);
}

/** The thread search for a protocol filter (the message search syntax; "" for all). */
export const protocolQuery = (protocol: Protocol | null): string => (protocol ? `protocol:${protocol}` : "");

export type PresenterKey = "next" | "prev" | "view" | "protocol" | "pin";

/** What a key press asks the presenter for, or null. Modified keys are the browser's; typing is left alone. */
export function presenterKey(e: { key: string; ctrlKey?: boolean; metaKey?: boolean; altKey?: boolean }, target: Parameters<typeof isTypingTarget>[0]): PresenterKey | null {
  if (e.ctrlKey || e.metaKey || e.altKey || isTypingTarget(target)) return null;
  switch (e.key) {
    case "ArrowRight":
    case "j":
      return "next";
    case "ArrowLeft":
    case "k":
      return "prev";
    case "v":
      return "view";
    case "p":
      return "protocol";
    case " ":
      return "pin";
    default:
      return null;
  }
}

/** The keys, as the presenter's legend shows them (j and k do as the arrows do). */
export const PRESENTER_KEYS: readonly { key: string; action: PresenterKey; what: string }[] = [
  { key: "←", action: "prev", what: "newer thread" },
  { key: "→", action: "next", what: "older thread" },
  { key: "v", action: "view", what: "graph / sequence" },
  { key: "p", action: "protocol", what: "protocol" },
  { key: "Space", action: "pin", what: "pin / follow" },
];

export type AgentLight = "sending" | "receiving" | null;

/**
 * The thread's agents in order of first appearance (as the sequence's lanes), the sender of the
 * newest message lit as sending and its recipients as receiving.
 */
export function agentLights(messages: readonly MessageSummary[]): { name: string; light: AgentLight }[] {
  const names: string[] = [];
  const add = (name: string) => {
    if (!names.includes(name)) names.push(name);
  };
  for (const m of messages) {
    if (m.from) add(m.from);
    for (const to of [...m.to, ...m.cc]) add(to);
  }
  const newest = messages.at(-1);
  const receiving = new Set(newest ? [...newest.to, ...newest.cc] : []);
  return names.map((name) => ({
    name,
    light: newest?.from === name ? "sending" : receiving.has(name) ? "receiving" : null,
  }));
}

/**
 * The ticker after one poll (`?since=seq`): changed messages replace their old selves, removed
 * ones leave, and the newest `size` stay, newest first. A poll that found more than it could
 * answer (`more`) is no list of the newest: the hook loads the newest page instead (`replace`).
 */
export function mergeTicker(items: readonly MessageSummary[], page: Pick<MessagePage, "items" | "removed">, size = TICKER_SIZE): MessageSummary[] {
  const removed = new Set(page.removed ?? []);
  const byKey = new Map(items.filter((m) => !removed.has(m.key)).map((m) => [m.key, m]));
  for (const m of page.items) if (!removed.has(m.key)) byKey.set(m.key, m);
  return [...byKey.values()].sort(compareNewestFirst).slice(0, size);
}
