import "server-only";
// The entries of a source that name an id no entry of it has: those whose problems about an absent
// entry a load held back (see EntryWriter.apply), among others. The source's references are read a
// page at a time in the order of their index, so looking is one pass over them with a turn of the
// event loop between pages. Asking instead for the first 2,000 such entries after an entry id, once
// a batch, read every reference of the source each time: 80 ms held a call on a channel of 54,000
// references, and as many calls as batches found. Paged: 27 pages of at most 3.5 ms, 70-73 ms in all.
import type { Statement } from "better-sqlite3";

/** Where a page of a source's references begins: after this target, and this row among its references. */
export interface RefCursor {
  target: string;
  at: number;
}

/** Before every reference ('' sorts first among targets, and no row is -1). */
const FIRST_REF: RefCursor = { target: "", at: -1 };
/** References a page reads: 2,000 of a 54,000-reference channel read in 2.8-3.5 ms a page. */
const REFS_A_PAGE = 2_000;

const ABSENT = "NOT EXISTS (SELECT 1 FROM entries e WHERE e.source = r.source AND e.message_id = r.target)";
const AFTER = "r.source = ? AND (r.target, r.rowid) > (?, ?)";

/**
 * One page: the entries among `refs` references after `from` that name an absent id, and where the
 * next page begins (null after the last). Where the page ends is found first, by its index alone, so
 * only the entries found come back to JavaScript: every reference's row returned took about twice
 * as long in all.
 */
export function absentInPage(sql: (text: string) => Statement, source: string, from: RefCursor, refs: number): { entries: number[]; next: RefCursor | null } {
  const end = sql(`SELECT r.target, r.rowid AS at FROM entry_refs r INDEXED BY entry_refs_target WHERE ${AFTER} ORDER BY r.target, r.rowid LIMIT 1 OFFSET ?`)
    .get(source, from.target, from.at, refs - 1) as RefCursor | undefined;
  const entries = end
    ? sql(`SELECT DISTINCT r.entry FROM entry_refs r INDEXED BY entry_refs_target WHERE ${AFTER} AND (r.target, r.rowid) <= (?, ?) AND ${ABSENT}`).pluck().all(source, from.target, from.at, end.target, end.at)
    : sql(`SELECT DISTINCT r.entry FROM entry_refs r INDEXED BY entry_refs_target WHERE ${AFTER} AND ${ABSENT}`).pluck().all(source, from.target, from.at);
  return { entries: entries as number[], next: end ?? null };
}

/**
 * Every entry of the source naming an absent id, each once (an entry may name several), in batches
 * of `batch` and a last smaller one; `pause()` between pages. The caller may write between batches.
 */
export async function* namingAbsent(sql: (text: string) => Statement, source: string, batch: number, pause: () => Promise<void>, refs = REFS_A_PAGE): AsyncGenerator<number[]> {
  const met = new Set<number>();
  const found: number[] = [];
  for (let from: RefCursor | null = FIRST_REF; from !== null; ) {
    const page = absentInPage(sql, source, from, refs);
    for (const id of page.entries) {
      if (met.has(id)) continue;
      met.add(id);
      found.push(id);
    }
    from = page.next;
    while (found.length >= batch) yield found.splice(0, batch);
    if (from === null && found.length > 0) yield found;
    if (from !== null) await pause();
  }
}
