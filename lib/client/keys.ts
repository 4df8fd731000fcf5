// SWR keys and API URLs, defined once so server fallbacks and client hooks agree.
import { threadIdSegment } from "@/lib/threads/ids";

export interface MessageListParams {
  q?: string;
  limit?: number;
  cursor?: string | null;
  since?: number;
}

function withParams(path: string, params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === "") continue;
    search.set(name, String(value));
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

export const keys = {
  /** Whether the console is sound, and the journal's problem if not. */
  health: "/api/health",
  stats: "/api/stats",
  sources: "/api/sources",
  sourceHealth: "/api/source-health",
  /** The charts; `params`: the range's (and agent's) query parameters. */
  charts: (params: Record<string, string>) => withParams("/api/charts", params),
  logs: "/api/logs",
  log: (source: string, name: string, from: number) => `/api/logs/${encodeURIComponent(source)}/${encodeURIComponent(name)}?from=${from}`,
  /** Values the search box completes. */
  facets: "/api/facets",
  messages: ({ q, limit, cursor, since }: MessageListParams = {}) =>
    withParams("/api/messages", { q: q?.trim(), limit, cursor, since }),
  /** The poll of one timeline: a stable key; the fetcher adds the moving `since`. */
  messagePoll: (q: string) => ["messages-poll", q.trim()] as const,
  message: (key: string) => `/api/messages/${encodeURIComponent(key)}`,
  raw: (key: string) => `/api/messages/${encodeURIComponent(key)}/raw`,
  deadLetters: "/api/dead-letters",
  /** POST: requeue, retry, discard or restore one message. */
  /** POST: any action the message offers (its detail's `actions`). */
  messageAction: (key: string, id: string) => `/api/messages/${encodeURIComponent(key)}/actions/${encodeURIComponent(id)}`,
  bulk: "/api/bulk",
  /** POST: send a message (or, with dryRun, preview the files). */
  compose: "/api/compose",
  /** Threads, newest activity first (`q`: the message search syntax over members), or the one holding `key`. */
  threads: ({ q, key }: { q?: string; key?: string } = {}) => withParams("/api/threads", { q: q?.trim(), key }),
  thread: (id: string) => `/api/threads/${threadIdSegment(id)}`,
  threadExport: (id: string, format: "json" | "md" | "zip") => withParams(`/api/threads/${threadIdSegment(id)}/export`, { format }),
} as const;

/** Page URLs (for links), so routes are spelled in one place. */
export const routes = {
  overview: "/",
  messages: (q?: string) => withParams("/messages", { q: q?.trim() }),
  message: (key: string) => `/messages/${encodeURIComponent(key)}`,
  agent: (agent: string) => `/agents/${encodeURIComponent(agent)}`,
  deadLetters: "/dead-letters",
  compose: (replyTo?: string) => withParams("/compose", { replyTo }),
  threads: (q?: string) => withParams("/threads", { q: q?.trim() }),
  thread: (id: string) => `/threads/${threadIdSegment(id)}`,
  logs: "/logs",
  document: (source: string, name: string) => `/sources/${encodeURIComponent(source)}/documents/${encodeURIComponent(name)}`,
} as const;
