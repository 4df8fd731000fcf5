import "server-only";
import type { BulkLoad } from "@/lib/journal/bulk";
import type { FoundFile } from "@/lib/protocols";
import { listSource, type SourceListing, type UnreadableDir } from "./listing";
import { loadOnWorkers, type workersForLoad } from "./load-workers";
import { FIRST_CHUNK_FILES, LoadFront, selectNewest } from "./newest-first";
import { PackedTree } from "./packed";
import type { PreparedFile, ReadableSource } from "./sync";
import type { IngestWorkers } from "./workers";

// A first scan's listing of a big tree on worker threads (see scanSource in scan.ts).

/** A big tree as the workers listed it. */
export interface ListedOnWorkers {
  tree: PackedTree;
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

/** List `source` on every worker, a share each (see ListOptions.share). */
export async function listOnWorkers(source: ReadableSource, workers: IngestWorkers, onDir: (dir: string) => void): Promise<ListedOnWorkers> {
  const of = workers.size;
  const shares = await Promise.all(Array.from({ length: of }, (_, part) => workers.list(source, { part, of }, onDir)));
  // Every share asks the folders above the listed one, and reads that one itself: said once.
  const unreadable = new Map<string, UnreadableDir>();
  for (const s of shares) for (const u of s.unreadable) unreadable.set(`${u.relPath}\0${u.code}`, u);
  return {
    tree: new PackedTree(shares.map((s) => s.listing)),
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

/** A packed tree's newest chunk (its files' indexes), picked without sorting the rest, and the claim its load will make. */
export function newestOfPacked(tree: PackedTree, chunkFiles: number): { files: number[]; front: LoadFront } {
  const { first, next } = selectNewest(tree.times, Math.min(FIRST_CHUNK_FILES, chunkFiles));
  // The rest is one placeholder chunk until it is ordered (LoadFront.restIs): its first is the newest of it.
  const firstTimes = first.length === 0 ? [] : [tree.timeAt(first[0] as number), ...(next === null ? [] : [tree.timeAt(next)])];
  return { files: first, front: new LoadFront(firstTimes) };
}

/**
 * A packed tree's bulk load: its newest chunk read here (`loadHere`, while the workers are busy
 * ordering the rest), then the rest newest first on the workers (see loadOnWorkers). Returns the
 * dead letters the workers found.
 */
export async function loadPacked(
  source: ReadableSource,
  tree: PackedTree,
  first: { files: number[]; front: LoadFront },
  workers: IngestWorkers,
  bulk: BulkLoad,
  { chunkFiles, stopped, loadHere, onChunk }: {
    chunkFiles: number;
    stopped: () => boolean;
    loadHere: (chunk: number, files: FoundFile[]) => Promise<void>;
    onChunk: (i: number, deadLetters: PreparedFile[]) => void;
  },
): Promise<PreparedFile[]> {
  // A copy: the worker takes the buffer over.
  const ordering = tree.size > first.files.length ? workers.order(tree.times.slice()) : Promise.resolve(new Uint32Array(0));
  // Awaited below, unless the first chunk fails first.
  ordering.catch(() => undefined);
  if (!stopped() && first.files.length > 0) await loadHere(0, first.files.map((i) => tree.fileAt(i)));
  const rest = restChunks(tree, await ordering, first.files, chunkFiles);
  if (rest.count > 0) first.front.restIs(rest.firstTimes);
  return loadOnWorkers(source, rest, workers, bulk, { stopped, onChunk: (i, deadLetters) => onChunk(i + 1, deadLetters) });
}
