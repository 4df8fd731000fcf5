import "server-only";
import type { Statement } from "better-sqlite3";
import type { Status } from "@/lib/model";
import type { Db } from "./db";

// What the journal writer's pieces (upkeep.ts, rewrite-events.ts, held-status.ts) share of it: its
// connection, its statements prepared once, its clock; and the two writes every change makes.

export interface WriterParts {
  readonly db: Db;
  /** Each SQL text prepared once (see prepared.ts). */
  readonly sql: (text: string) => Statement;
  readonly now: () => number;
}

/** A new seq for a row written now: every change bumps it, so polls cost O(change). */
export function nextSeq({ sql }: WriterParts): number {
  return (sql("UPDATE meta SET value = value + 1 WHERE name = 'seq' RETURNING value").get() as { value: number }).value;
}

/** One step of a message's history. `fromStatus`: for a status event, the status it left (migration 18). */
export function addEvent({ sql }: WriterParts, key: string, atMs: number, kind: string, detail: string, fromStatus: Status | null = null): void {
  sql("INSERT INTO events (key, at_ms, kind, detail, from_status) VALUES (?, ?, ?, ?, ?)").run(key, atMs, kind, detail, fromStatus);
}
