import "server-only";
import type { BulkLoad } from "@/lib/journal/bulk";
import type { FoundFile } from "@/lib/protocols";
import { listSource, type SourceListing, type UnreadableDir } from "./listing";
import { loadOnWorkers, type LoadedOnWorkers, type workersForLoad } from "./load-workers";
import { FIRST_CHUNK_FILES, LoadFront, newerFirst } from "./newest-first";
import { PackedTree } from "./packed";
import type { PreparedFile, ReadableSource } from "./sync";
import type { IngestWorkers } from "./workers";
import type { WalkedShare } from "./worker-jobs";

// A first scan's listing of a big tree on worker threads (see scanSource in scan.ts).

/** A big tree as the workers listed it. */
export interface ListedOnWorkers {
  /** Files listed. */
  size: number;
  /** Each share's count and newest files, in share order (the order of `tree`): the tree's newest are among them. */
  shares: Pick<WalkedShare, "count" | "newest">[];
  /**
   * The whole tree, packed. It comes after the shares' newest, and a load reads its newest chunk
   * meanwhile: at a million files on a busy 2-core machine, packing, handing over and taking in
   * the tree took 0.9 s of the 3.6-3.9 s to a correct newest page.
   */
  tree: Promise<PackedTree>;
  unreadable: UnreadableDir[];
  /** The folders listed (to watch). */
  dirs: string[];
  /** Worker threads the listing ran on. */
  workers: number;
}

/** Thrown out of a listing on this thread that found the tree big: it is listed again on the workers. */
class TreeIsBig extends Error {}

/**
 * List the tree of an empty journal's first scan: here while it is small (workers start cold, see
 * WORKERS_MIN_FILES), and once it holds `minFiles` files, again on worker threads, each a share of
 * it (sync reads there block no request; at a million files listing here took 3.9 s, split over
 * the requests it served). `onDir` hears each folder before it is read, wherever it is read; a
 * folder listed here first is heard again there.
 */
export async function listForLoad(
  source: ReadableSource,
  early: ReturnType<typeof workersForLoad>,
  minFiles: number,
  onDir: (dir: string) => void,
): Promise<SourceListing | ListedOnWorkers> {
  let listed = 0;
  const stopWhenBig = () => {
    if (listed >= minFiles) throw new TreeIsBig();
  };
  try {
    return await listSource(source.root, source.reader, {
      stat: false,
      onListed: (files) => {
        early.onListed(files);
        listed += files;
        stopWhenBig();
      },
      // The other folders being listed stop too, before their next folder.
      onDir: (dir) => {
        stopWhenBig();
        onDir(dir);
      },
    });
  } catch (err) {
    if (!(err instanceof TreeIsBig)) throw err;
  }
  const workers = await early.take(true);
  if (workers) {
    try {
      return await listOnWorkers(source, workers, onDir);
    } catch (err) {
      console.error("[mailroom] listing on worker threads failed; listing on the main thread:", err);
    }
  }
  return listSource(source.root, source.reader, { stat: false, onListed: early.onListed, onDir });
}

/** List `source` on every worker, a share each (see ListOptions.share); resolves once every share is walked. */
export async function listOnWorkers(source: ReadableSource, workers: IngestWorkers, onDir: (dir: string) => void): Promise<ListedOnWorkers> {
  const of = workers.size;
  // Each share's newest chunk and one more: the tree's are among them (see newestOfListed).
  const lists = Array.from({ length: of }, (_, part) => workers.list(source, { part, of }, onDir, { newest: FIRST_CHUNK_FILES + 1 }));
  const tree = Promise.all(lists.map((l) => l.listing)).then((listings) => new PackedTree(listings));
  // Awaited by the load; a scan that fails before must not leave it unhandled.
  tree.catch(() => undefined);
  const shares = await Promise.all(lists.map((l) => l.walked));
  // Every share asks the folders above the listed one, and reads that one itself: said once.
  const unreadable = new Map<string, UnreadableDir>();
  for (const s of shares) for (const u of s.unreadable) unreadable.set(`${u.relPath}\0${u.code}`, u);
  return {
    size: shares.reduce((n, s) => n + s.count, 0),
    shares: shares.map(({ count, newest }) => ({ count, newest })),
    tree,
    unreadable: [...unreadable.values()],
    dirs: [...new Set(shares.flatMap((s) => s.dirs))],
    workers: of,
  };
}

/** The rest of a packed load newest first (`order`, see orderNewestFirst), without the files `loaded`, in chunks. */
export function restChunks(tree: PackedTree, order: Uint32Array, loaded: readonly number[], chunkFiles: number) {
  const skip = new Uint8Array(tree.size);
  for (const i of loaded) skip[i] = 1;
  const rest = order.filter((i) => skip[i] === 0);
  const count = Math.ceil(rest.length / chunkFiles);
  return {
    count,
    firstTimes: Array.from({ length: count }, (_, i) => tree.timeAt(rest[i * chunkFiles] as number)),
    /** Chunk i's files, made when it is handed out (a million objects at once held the main thread). */
    at: (i: number): FoundFile[] => Array.from(rest.subarray(i * chunkFiles, (i + 1) * chunkFiles), (j) => tree.fileAt(j)),
  };
}

/**
 * A listed tree's newest chunk (its files' indexes in the tree, and the files) and the claim its
 * load will make, picked from its shares' newest without waiting for the tree: a share's order is
 * the tree's kept to its files (the tree is its shares one after the other), so the tree's first
 * `k` + 1 are each among their share's first `k` + 1.
 */
export function newestOfListed(listed: Pick<ListedOnWorkers, "shares">, chunkFiles: number): { files: number[]; found: FoundFile[]; front: LoadFront } {
  const k = Math.min(FIRST_CHUNK_FILES, chunkFiles);
  const candidates: { at: number; time: number; file: FoundFile }[] = [];
  let base = 0;
  for (const { count, newest } of listed.shares) {
    if (newest.at.length < Math.min(count, k + 1)) throw new Error(`a share sent its ${newest.at.length} newest files, not ${k + 1}`);
    newest.at.forEach((j, n) => candidates.push({ at: base + j, time: newest.times[n] as number, file: newest.files[n] as FoundFile }));
    base += count;
  }
  candidates.sort((a, b) => newerFirst(a.time, a.at, b.time, b.at));
  const first = candidates.slice(0, k);
  const timeOf = (c: { time: number } | undefined) => (c === undefined || Number.isNaN(c.time) ? null : c.time);
  // The rest is one placeholder chunk until it is ordered (LoadFront.restIs): its first is the newest of it.
  const firstTimes = first.length === 0 ? [] : [timeOf(first[0]), ...(candidates.length > k ? [timeOf(candidates[k])] : [])];
  return { files: first.map((c) => c.at), found: first.map((c) => c.file), front: new LoadFront(firstTimes) };
}

/**
 * A listed tree's bulk load: its newest chunk read here (`loadHere`, while the tree is handed over
 * and the workers order the rest), then the rest newest first on the workers (see loadOnWorkers).
 * Returns the dead letters the workers found, and what was read ahead of them.
 */
export async function loadPacked(
  source: ReadableSource,
  listed: ListedOnWorkers,
  first: { files: number[]; found: FoundFile[]; front: LoadFront },
  workers: IngestWorkers,
  bulk: BulkLoad,
  { chunkFiles, stopped, loadHere, onChunk }: {
    chunkFiles: number;
    stopped: () => boolean;
    loadHere: (chunk: number, files: FoundFile[]) => Promise<void>;
    onChunk: (i: number, deadLetters: PreparedFile[]) => void;
  },
): Promise<LoadedOnWorkers> {
  // Ordered as soon as the tree is here; a copy of its times: the worker takes the buffer over.
  const ordering = listed.tree.then(async (tree) => ({
    tree,
    order: tree.size > first.files.length ? await workers.order(tree.times.slice()) : new Uint32Array(0),
  }));
  // Awaited below, unless the first chunk fails first.
  ordering.catch(() => undefined);
  if (!stopped() && first.files.length > 0) await loadHere(0, first.found);
  const { tree, order } = await ordering;
  const rest = restChunks(tree, order, first.files, chunkFiles);
  if (rest.count > 0) first.front.restIs(rest.firstTimes);
  return loadOnWorkers(source, rest, workers, bulk, { stopped, onChunk: (i, deadLetters) => onChunk(i + 1, deadLetters) });
}
