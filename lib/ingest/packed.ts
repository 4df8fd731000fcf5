import "server-only";
import type { FoundFile } from "@/lib/protocols";
import { UNSTATTED } from "@/lib/protocols/fs-safe";

/**
 * A listing in a form that crosses threads cheaply: a few strings and typed arrays rather than an
 * object per file, which structured clone would copy one by one on the main thread (a million of
 * them), and the name times the worker already worked out.
 */
export interface PackedListing {
  /** The root-relative paths joined with NUL, which no file name holds. */
  paths: string;
  /** Where each path starts in `paths`, and where one more would (path i ends at starts[i + 1] - 1). */
  starts: Uint32Array;
  /** Each file's name time (ms), NaN when its name tells none. */
  times: Float64Array;
  /** The entries that are not regular files listed without their stat (a symlink, a folder…), by index. */
  special: { at: number; file: FoundFile }[];
}

const isPlain = (f: FoundFile) => f.kind === "file" && f.size === UNSTATTED && f.mtimeMs === UNSTATTED && f.ino === UNSTATTED;

/** Regular files of one folder, by name, as a listing hands them over (see ListOptions.plainFiles). */
export interface PlainFolder {
  /** Root-relative, "" for the root. */
  relDir: string;
  names: string[];
}

/**
 * Pack `files` and the files of `folders` (in that order) with their name times (`timeOf`; none
 * when the protocol's names tell none). A folder's paths are made by one join, not one by one,
 * and each time is asked of a slice of the joined paths (a view, not a copy).
 */
export function pack(files: readonly FoundFile[], folders: readonly PlainFolder[], timeOf: ((relPath: string) => number | null) | undefined): PackedListing {
  const count = folders.reduce((n, f) => n + f.names.length, files.length);
  const starts = new Uint32Array(count + 1);
  const special: PackedListing["special"] = [];
  const pieces: string[] = [];
  let at = 0;
  for (const [i, f] of files.entries()) {
    starts[i] = at;
    at += f.relPath.length + 1;
    if (!isPlain(f)) special.push({ at: i, file: f });
  }
  if (files.length > 0) pieces.push(files.map((f) => f.relPath).join("\0"));
  let i = files.length;
  for (const { relDir, names } of folders) {
    if (names.length === 0) continue;
    const prefix = relDir === "" ? "" : `${relDir}/`;
    for (const name of names) {
      starts[i++] = at;
      at += prefix.length + name.length + 1;
    }
    pieces.push(prefix + names.join(`\0${prefix}`));
  }
  starts[count] = at;
  const paths = pieces.join("\0");
  const times = new Float64Array(count);
  for (let j = 0; j < count; j++) times[j] = timeOf?.(paths.slice(starts[j], (starts[j + 1] as number) - 1)) ?? NaN;
  return { paths, starts, times, special };
}

/** File j of a packed listing, as a listing without stats gives it, when it is not one of its specials. */
function plainFileAt(listing: PackedListing, j: number): FoundFile {
  const relPath = listing.paths.slice(listing.starts[j], (listing.starts[j + 1] as number) - 1);
  return { relPath, kind: "file", size: UNSTATTED, mtimeMs: UNSTATTED, ino: UNSTATTED };
}

/** Files `at` of a packed listing. */
export function filesAt(listing: PackedListing, at: readonly number[]): FoundFile[] {
  const special = new Map(listing.special.map((s) => [s.at, s.file]));
  return at.map((j) => special.get(j) ?? plainFileAt(listing, j));
}

/** The buffers of a packed listing, handed over to the other thread rather than copied. */
export const transferOf = (p: PackedListing): ArrayBuffer[] => [p.starts.buffer as ArrayBuffer, p.times.buffer as ArrayBuffer];

/** Packed listings of a tree's shares, as one listing: file i of all of them, in the order given. */
export class PackedTree {
  readonly size: number;
  /** Every file's name time, in one array (NaN: none). */
  readonly times: Float64Array;
  private readonly bases: number[] = [];
  private readonly special = new Map<number, FoundFile>();

  constructor(private readonly parts: readonly PackedListing[]) {
    let size = 0;
    for (const part of parts) {
      this.bases.push(size);
      for (const s of part.special) this.special.set(size + s.at, s.file);
      size += part.times.length;
    }
    this.size = size;
    this.times = new Float64Array(size);
    parts.forEach((part, i) => this.times.set(part.times, this.bases[i]));
  }

  /** File i's name time, null when its name tells none. */
  timeAt(i: number): number | null {
    const t = this.times[i] as number;
    return Number.isNaN(t) ? null : t;
  }

  /** File i, as a listing without stats gives it. */
  fileAt(i: number): FoundFile {
    const special = this.special.get(i);
    if (special) return special;
    let p = this.parts.length - 1;
    while (p > 0 && (this.bases[p] as number) > i) p--;
    return plainFileAt(this.parts[p] as PackedListing, i - (this.bases[p] as number));
  }
}
