import "server-only";
// Which entries a change can affect: the changed ones, the entries they name (an ack's message, a
// reply's request, up a correlation chain) and the entries that name them (a message's acks, a
// request's answers, down the chain). Adapters settle statuses and threads over exactly these, so
// an append costs O(what it touches), never a pass over the source.
import type { Entry } from "@/lib/protocols/entries";
import { refsOf, type EntryStore, type StoredEntry } from "./entry-store";

/** Hops followed each way: KickLang's correlation chains are a request and its answers (resolve caps them at 64 too). */
const MAX_ROUNDS = 64;
/** A neighbourhood this big is a hostile tree (every entry naming one id), not a conversation. */
const MAX_ENTRIES = 20_000;
/** Documents (shogun's commands, tasks, reports) ride along: an inbox message joins its command's thread through them. */
const MAX_DOCUMENTS = 5_000;

const present = <T>(v: T | null | undefined): v is T => v !== null && v !== undefined;

/**
 * `written`: entries as the caller's transaction wrote them (not read back; see EntryStore.byId).
 * `anyReferrer` (ProtocolReadSide.settlesByAnyReferrer): an entry reached only up a chain from a
 * change is settled without what else names it, as the change names it already: an answer to a
 * request with answers before no longer reads them all again (three old rows per append, 100 MB channel).
 */
export function neighbourhood(store: EntryStore, source: string, changed: readonly number[], written?: ReadonlyMap<number, StoredEntry>, anyReferrer = false): StoredEntry[] {
  const seen = new Map<number, StoredEntry>();
  /** Reached only up a chain (with anyReferrer): what names them is not looked for. */
  const upOnly = new Set<number>();
  let frontier = [...new Set(changed)];
  /** Reached up first and down since (a loop): what names them is looked for after all. */
  let downAgain: StoredEntry[] = [];
  for (let round = 0; round <= MAX_ROUNDS && frontier.length + downAgain.length > 0 && seen.size < MAX_ENTRIES; round++) {
    const fresh = store.byId(frontier.filter((id) => !seen.has(id)), written);
    for (const s of fresh) seen.set(s.id, s);
    const named = [...new Set(fresh.flatMap((s) => refsOf(s.entry)))];
    const own = [...new Set([...fresh.filter((s) => !upOnly.has(s.id)), ...downAgain].map((s) => s.entry.messageId).filter(present))];
    const up = store.withMessageIds(source, named).filter((id) => !seen.has(id));
    const down = store.referring(source, own);
    downAgain = [];
    if (anyReferrer) {
      for (const id of up) upOnly.add(id);
      for (const id of down) {
        const s = upOnly.delete(id) ? seen.get(id) : undefined;
        if (s) downAgain.push(s);
      }
    }
    frontier = [...up, ...down].filter((id) => !seen.has(id));
  }
  const documents = store.documents(source, MAX_DOCUMENTS).filter((id) => !seen.has(id));
  for (const s of store.byId(documents)) seen.set(s.id, s);
  return [...seen.values()];
}

/**
 * The entries of a neighbourhood whose settled view a change of `seeds` can alter: the seeds, the
 * entries they name (their answers, acks or holders changed) and those that name them, all the way
 * down (their chain up changed). Adapters settle an entry from itself, what it names up its chain
 * and what names it, so the rest (a request's other answers, met on the way down from it) is only
 * read for settling these, and its rows are neither looked up nor planned again: a stream of
 * answers to old requests looked up and compared three untouched rows for each answer appended.
 * Every entry when a document changed: adapters may thread any message by documents (see neighbourhood).
 */
export function affectedBy(around: readonly StoredEntry[], seeds: readonly number[]): Set<number> {
  const out = new Set(seeds);
  const seeded = around.filter((s) => out.has(s.id));
  if (seeded.some((s) => s.entry.kind === "document")) return new Set(around.map((s) => s.id));
  const byMessageId = new Map<string, number[]>();
  const namedBy = new Map<string, number[]>();
  const add = (index: Map<string, number[]>, id: string, entry: number) => {
    const ids = index.get(id);
    if (ids) ids.push(entry);
    else index.set(id, [entry]);
  };
  for (const s of around) {
    if (s.entry.messageId) add(byMessageId, s.entry.messageId, s.id);
    for (const ref of refsOf(s.entry)) add(namedBy, ref, s.id);
  }
  for (const s of seeded) for (const ref of refsOf(s.entry)) for (const id of byMessageId.get(ref) ?? []) out.add(id);
  const byId = new Map(around.map((s) => [s.id, s]));
  const downFrom = new Set(seeded.map((s) => s.id));
  for (let down = seeded; down.length > 0; ) {
    const next: StoredEntry[] = [];
    for (const s of down) {
      for (const id of (s.entry.messageId && namedBy.get(s.entry.messageId)) || []) {
        out.add(id);
        const r = byId.get(id);
        if (r && !downFrom.has(id)) next.push(r);
        downFrom.add(id);
      }
    }
    down = next;
  }
  return out;
}

/** An entry without its problems about absent entries (EntryProblem.absent), held back while a load may still bring them. */
function withoutAbsent(e: Entry): Entry {
  return e.problems.some((p) => p.absent !== undefined) ? { ...e, problems: e.problems.filter((p) => p.absent === undefined) } : e;
}

/**
 * The adapter's settled view of each entry in the neighbourhood, by entry id; `holdAbsent`: see
 * EntryWriter.apply. `held`: whether a problem about an absent entry was held back.
 */
export function settle(entries: readonly StoredEntry[], resolve: (entries: readonly Entry[]) => Entry[], holdAbsent = false): { views: Map<number, Entry>; held: boolean } {
  const resolved = resolve(entries.map((s) => (s.path === null ? { ...s.entry, gone: true } : s.entry)));
  const views = new Map<number, Entry>();
  let held = false;
  entries.forEach((s, i) => {
    const e = resolved[i] ?? s.entry;
    const view = holdAbsent ? withoutAbsent(e) : e;
    held ||= view !== e;
    views.set(s.id, view);
  });
  return { views, held };
}
