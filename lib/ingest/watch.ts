import "server-only";
import fs from "node:fs";
import path from "node:path";

/**
 * Watches a set of directories (not recursive: one inotify watch each) and reports changed
 * names in batches. Events are only hints: every reported path is lstat-ed before use, and the
 * periodic rescan covers whatever the platform drops (network filesystems, overflow).
 */
export class DirWatcher {
  private watchers = new Map<string, fs.FSWatcher>();
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly onBatch: (absPaths: string[]) => void,
    private readonly debounceMs = 50,
  ) {}

  /** Watch exactly these directories from now on. */
  setDirs(dirs: Iterable<string>): void {
    const wanted = new Set(dirs);
    for (const [dir, w] of this.watchers) {
      if (!wanted.has(dir)) {
        w.close();
        this.watchers.delete(dir);
      }
    }
    for (const dir of wanted) {
      if (this.watchers.has(dir)) continue;
      try {
        const w = fs.watch(dir, { persistent: false }, (_event, name) => {
          this.push(name ? path.join(dir, name.toString()) : dir);
        });
        w.on("error", () => {
          w.close();
          this.watchers.delete(dir);
        });
        this.watchers.set(dir, w);
      } catch {
        // Gone or unreadable: the rescan picks it up when it appears.
      }
    }
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
    for (const [watched, w] of this.watchers) {
      if (watched !== dir && !watched.startsWith(dir + path.sep)) continue;
      w.close();
      this.watchers.delete(watched);
    }
  }

  private push(absPath: string): void {
    this.pending.add(absPath);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      const batch = [...this.pending];
      this.pending.clear();
      this.onBatch(batch);
    }, this.debounceMs);
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }
}

/** What `dir` holds other than folders (files, links, …), as absolute paths; [] when it cannot be read. */
export function nonFoldersIn(dir: string): string[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true }).filter((e) => !e.isDirectory()).map((e) => path.join(dir, e.name));
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
