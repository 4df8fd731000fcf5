import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { DirWatcher } from "./watch";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

it("adds folders to what it watches without dropping one it already watched", async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-watch-"));
  dirs.push(root);
  const [found, listed] = ["found-since", "listed"].map((name) => path.join(root, name)) as [string, string];
  for (const d of [found, listed]) fs.mkdirSync(d);
  const seen: string[] = [];
  const watcher = new DirWatcher((paths) => seen.push(...paths), 10);
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
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-watch-"));
  dirs.push(root);
  const seen: string[] = [];
  const watcher = new DirWatcher((paths) => seen.push(...paths), 10);
  watcher.close();
  watcher.setDirs([root]);
  fs.writeFileSync(path.join(root, "a.mime"), "x");
  await new Promise((r) => setTimeout(r, 200));
  expect(seen).toEqual([]);
});

it("adds one folder as a listing reaches it, leaving the others watched", async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-watch-"));
  dirs.push(root);
  const [first, second] = ["first", "second"].map((name) => path.join(root, name)) as [string, string];
  for (const d of [first, second]) fs.mkdirSync(d);
  const seen: string[] = [];
  const watcher = new DirWatcher((paths) => seen.push(...paths), 10);
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
