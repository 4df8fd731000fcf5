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

/** Pack `files` with their name times (`timeOf`; none when the protocol's names tell none). */
export function pack(files: readonly FoundFile[], timeOf: ((relPath: string) => number | null) | undefined): PackedListing {
  const starts = new Uint32Array(files.length + 1);
  const times = new Float64Array(files.length);
  const special: PackedListing["special"] = [];
  let at = 0;
  for (const [i, f] of files.entries()) {
    starts[i] = at;
    at += f.relPath.length + 1;
    times[i] = timeOf?.(f.relPath) ?? NaN;
    if (!isPlain(f)) special.push({ at: i, file: f });
  }
  starts[files.length] = at;
  return { paths: files.map((f) => f.relPath).join("\0"), starts, times, special };
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
    const part = this.parts[p] as PackedListing;
    const j = i - (this.bases[p] as number);
    const relPath = part.paths.slice(part.starts[j], (part.starts[j + 1] as number) - 1);
    return { relPath, kind: "file", size: UNSTATTED, mtimeMs: UNSTATTED, ino: UNSTATTED };
  }
}
