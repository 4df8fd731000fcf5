import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { batchDelay, DirWatcher } from "./watch";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A temp folder holding `names` as empty folders, and a watcher (not yet watching) that collects what it hears. */
function watcherOver(...names: string[]) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-watch-"));
  dirs.push(root);
  const folders = names.map((name) => path.join(root, name));
  for (const d of folders) fs.mkdirSync(d);
  const seen: string[] = [];
  return { root, folders, seen, watcher: new DirWatcher((paths) => seen.push(...paths), 10) };
}

it("adds folders to what it watches without dropping one it already watched", async () => {
  const { folders, seen, watcher } = watcherOver("found-since", "listed");
  const [found, listed] = folders as [string, string];
  try {
    watcher.setDirs([found]);
    // A rescan's list from before `found` existed.
    watcher.addDirs([listed]);
    fs.writeFileSync(path.join(found, "a.mime"), "x");
    fs.writeFileSync(path.join(listed, "b.mime"), "x");
    await expect.poll(() => [...new Set(seen)].sort()).toEqual([path.join(found, "a.mime"), path.join(listed, "b.mime")]);
  } finally {
    watcher.close();
  }
});

it("watches nothing once closed, even when asked to after (a scan that ends after a stop)", async () => {
  const { root, seen, watcher } = watcherOver();
  watcher.close();
  watcher.setDirs([root]);
  fs.writeFileSync(path.join(root, "a.mime"), "x");
  await new Promise((r) => setTimeout(r, 200));
  expect(seen).toEqual([]);
});

it("adds one folder as a listing reaches it, leaving the others watched", async () => {
  const { root, folders, seen, watcher } = watcherOver("first", "second");
  const [first, second] = folders as [string, string];
  try {
    watcher.addDir(first);
    watcher.addDir(second);
    watcher.addDir(path.join(root, "missing")); // gone by then: nothing to watch, no error
    expect([first, second].map((d) => watcher.watches(d))).toEqual([true, true]);
    fs.writeFileSync(path.join(first, "a.mime"), "x");
    fs.writeFileSync(path.join(second, "b.mime"), "x");
    await expect.poll(() => [...new Set(seen)].sort()).toEqual([path.join(first, "a.mime"), path.join(second, "b.mime")]);
  } finally {
    watcher.close();
  }
  watcher.addDir(first); // after close: a no-op
  expect(watcher.watches(first)).toBe(false);
});

it("spaces batches under a steady stream of events, and keeps a lone event's wait to the debounce", () => {
  // Nothing handed on yet, or the last batch long ago: the debounce alone.
  expect(batchDelay(1_000, null, 50, 200)).toBe(50);
  expect(batchDelay(1_000, 500, 50, 200)).toBe(50);
  // Events again 60 ms after a batch (a stream): the next waits until 200 ms after that batch.
  expect(batchDelay(1_060, 1_000, 50, 200)).toBe(140);
  // Never less than the debounce, however the spacing falls.
  expect(batchDelay(1_180, 1_000, 50, 200)).toBe(50);
});

it("hands on a stream of changes at most one batch per spacing", async () => {
  const { folders } = watcherOver("channel");
  const [dir] = folders as [string];
  const at: number[] = [];
  const watcher = new DirWatcher(() => at.push(performance.now()), 10, 200);
  const file = path.join(dir, "stream.jsonl");
  try {
    watcher.setDirs([dir]);
    // Appends every 5 ms for about a second, as a channel written to 200 times a second.
    for (let i = 0; i < 200; i++) {
      fs.appendFileSync(file, `${i}\n`);
      await new Promise((r) => setTimeout(r, 5));
    }
    await expect.poll(() => at.length, { timeout: 10_000 }).toBeGreaterThan(1);
    // A loaded machine only stretches the gaps; with the 10 ms debounce alone they were ~10 ms.
    const gaps = at.slice(1).map((t, i) => t - (at[i] as number));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(195);
  } finally {
    watcher.close();
  }
});
