import "server-only";
import fs from "node:fs";
import path from "node:path";

/**
 * Under a steady stream of events, batches are at least this far apart. Each batch is one journal
 * transaction per source, whose fixed costs (the commit's WAL pages, the full-text index's new
 * segment, the lookups of the files' state) are paid per batch: a KickLang channel appended to
 * 1,000 times a second cost 0.45 CPU-seconds per 1,000 appends journaled in batches of 50 (the
 * debounce alone), 0.33 in batches of 200 (scripts/bench-append.ts). A lone event still waits
 * only the debounce.
 */
export const BUSY_SPACING_MS = 200;

/** How long a batch whose first event came now waits: the debounce, and no sooner than `spacingMs` after the batch before. */
export function batchDelay(nowMs: number, lastBatchMs: number | null, debounceMs: number, spacingMs: number): number {
  return lastBatchMs === null ? debounceMs : Math.max(debounceMs, lastBatchMs + spacingMs - nowMs);
}

/**
 * Watches a set of directories (not recursive: one inotify watch each) and reports changed
 * names in batches. Events are only hints: every reported path is lstat-ed before use, and the
 * periodic rescan covers whatever the platform drops (network filesystems, overflow).
 */
export class DirWatcher {
  /** By path, with which folder is watched (folderId): a watch follows its folder, so a new folder at that path needs its own. */
  private watchers = new Map<string, { watch: fs.FSWatcher; id: string }>();
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  /** When the last batch was handed on (performance.now()). */
  private lastBatchMs: number | null = null;

  constructor(
    private readonly onBatch: (absPaths: string[]) => void,
    private readonly debounceMs = 50,
    private readonly spacingMs = BUSY_SPACING_MS,
  ) {}

  /** Watch exactly these directories from now on (a watch of another folder at one's path is replaced). */
  setDirs(dirs: Iterable<string>): void {
    if (this.closed) return; // a scan that ends after stop() must not leave watches behind
    const wanted = new Set(dirs);
    for (const dir of this.watchers.keys()) if (!wanted.has(dir)) this.unwatch(dir);
    for (const dir of wanted) this.watch(dir);
  }

  /** Watch one more directory (a scan's, as it lists it), leaving the others as they are. */
  addDir(dir: string): void {
    if (!this.closed) this.watch(dir);
  }

  private watch(dir: string): void {
    const id = folderId(dir);
    if (id === null) {
      this.unwatch(dir); // gone, or a link: the rescan picks it up when a folder is there
      return;
    }
    if (this.watchers.get(dir)?.id === id) return;
    this.unwatch(dir);
    try {
      const watch = fs.watch(dir, { persistent: false }, (_event, name) => {
        this.push(name ? path.join(dir, name.toString()) : dir);
      });
      watch.on("error", () => {
        if (this.watchers.get(dir)?.watch === watch) this.unwatch(dir);
      });
      this.watchers.set(dir, { watch, id });
    } catch {
      // Gone or unreadable: the rescan picks it up when it appears.
    }
  }

  /** Whether the folder now at `dir` is the one watched there. */
  watches(dir: string): boolean {
    const watched = this.watchers.get(dir);
    return watched !== undefined && watched.id === folderId(dir);
  }

  private unwatch(dir: string): void {
    this.watchers.get(dir)?.watch.close();
    this.watchers.delete(dir);
  }

  /** Watch these directories too (a stale list must not drop a folder found since). */
  addDirs(dirs: Iterable<string>): void {
    this.setDirs([...this.watchers.keys(), ...dirs]);
  }

  /**
   * Stop watching `dir` and the folders under it: it is gone or was renamed (a watch follows the
   * folder, not its name), and a folder made again under that name must get a watch of its own.
   */
  drop(dir: string): void {
    for (const watched of this.watchers.keys()) if (watched === dir || watched.startsWith(dir + path.sep)) this.unwatch(watched);
  }

  private push(absPath: string): void {
    this.pending.add(absPath);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.lastBatchMs = performance.now();
      const batch = [...this.pending];
      this.pending.clear();
      this.onBatch(batch);
    }, batchDelay(performance.now(), this.lastBatchMs, this.debounceMs, this.spacingMs));
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const dir of this.watchers.keys()) this.unwatch(dir);
  }
}

/**
 * Which folder is at `dir` when it is a real directory (not a link to one), else null: its inode
 * and birth time, as a folder removed and made again at once often gets the same inode.
 */
function folderId(dir: string): string | null {
  try {
    const st = fs.lstatSync(dir);
    return st.isDirectory() ? `${st.ino}:${st.birthtimeMs}` : null;
  } catch {
    return null;
  }
}

/** What `dir` holds, as absolute paths, when it is a real directory (a link is never read); else []. */
export function entriesIn(dir: string): string[] {
  if (folderId(dir) === null) return [];
  try {
    return fs.readdirSync(dir).map((name) => path.join(dir, name));
  } catch {
    return [];
  }
}

/** How many levels below a watched root folders are watched. */
export const WATCH_DEPTH = 4;

/** Every real directory under `dirs` (symlinks are never entered), up to `depth` levels. */
export function listDirs(dirs: string[], depth = WATCH_DEPTH): string[] {
  const out: string[] = [];
  const walk = (dir: string, level: number) => {
    // Entries below are known real folders from their directory entry; a starting one is checked.
    if (level === 0 && folderId(dir) === null) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    out.push(dir);
    if (level >= depth) return;
    for (const e of entries) if (e.isDirectory()) walk(path.join(dir, e.name), level + 1);
  };
  for (const d of dirs) walk(d, 0);
  return out;
}
