import "server-only";
import type { FoundFile } from "@/lib/protocols";
import { UNSTATTED } from "@/lib/protocols/fs-safe";
import { fileName } from "./newest-first";

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
 * The name times (`timeOf`; none when the protocol's names tell none) of `files` and the files of
 * `folders`, in that order (pack's): worked out before the paths are joined, so that a share's
 * newest can be sent before its listing is packed.
 */
export function nameTimes(files: readonly FoundFile[], folders: readonly PlainFolder[], timeOf: ((name: string) => number | null) | undefined): Float64Array {
  const times = new Float64Array(folders.reduce((n, f) => n + f.names.length, files.length)).fill(NaN);
  if (!timeOf) return times;
  let i = 0;
  for (const f of files) times[i++] = timeOf(fileName(f.relPath)) ?? NaN;
  for (const { names } of folders) for (const name of names) times[i++] = timeOf(name) ?? NaN;
  return times;
}

/** File j of `files` and the files of `folders`, in pack's order, before they are packed. */
export function unpackedFileAt(files: readonly FoundFile[], folders: readonly PlainFolder[], j: number): FoundFile {
  const file = files[j];
  if (file) return file;
  let k = j - files.length;
  for (const { relDir, names } of folders) {
    const name = names[k];
    if (name !== undefined) return plainFile(relDir === "" ? name : `${relDir}/${name}`);
    k -= names.length;
  }
  throw new RangeError(`no file ${j} in a listing of ${folders.reduce((n, f) => n + f.names.length, files.length)}`);
}

/**
 * Pack `files` and the files of `folders` (in that order) with their name times (`times`, see
 * nameTimes). A folder's paths are made by one join, not one by one.
 */
export function pack(files: readonly FoundFile[], folders: readonly PlainFolder[], times: Float64Array): PackedListing {
  const count = times.length;
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
  return { paths: pieces.join("\0"), starts, times, special };
}

/** A regular file as a listing without stats gives it. */
function plainFile(relPath: string): FoundFile {
  return { relPath, kind: "file", size: UNSTATTED, mtimeMs: UNSTATTED, ino: UNSTATTED };
}

/** File j of a packed listing, when it is not one of its specials. */
function plainFileAt(listing: PackedListing, j: number): FoundFile {
  return plainFile(listing.paths.slice(listing.starts[j], (listing.starts[j + 1] as number) - 1));
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
