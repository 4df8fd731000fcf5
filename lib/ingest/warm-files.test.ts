// Reading a load's files ahead of it (warm-files.ts, warm-worker.ts): into the page cache, the one
// safe way, and not at all for a chunk that is there already. Whether a file came from the disk is
// asked of the kernel (/proc/thread-self/io), as the warm threads ask it: Linux only.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { generateIgniteTree } from "@/lib/bench/generate";
import { openDb } from "@/lib/journal/db";
import { JournalWriter } from "@/lib/journal/writer";
import { openIgnite } from "@/lib/protocols/ignite";
import { canEvict, diskBytesToRead, evict } from "@/lib/testing/page-cache";
import { tempDirs } from "@/lib/testing/temp-dirs";
import { scanSource } from "./scan";
import { FileWarmer } from "./warm-files";
import { diskReadBytes } from "./disk-reads";
import { SAMPLE_FILES, warmJob } from "./warm-worker";

const temp = tempDirs();
let warmer: FileWarmer | null = null;
afterEach(async () => {
  await warmer?.close();
  warmer = null;
});

function queueWith(count: number): { root: string; relPaths: string[] } {
  const root = path.join(temp("mailroom-warm-"), "root");
  fs.mkdirSync(path.join(root, "queue"), { recursive: true });
  const relPaths = Array.from({ length: count }, (_, i) => `queue/m${i}.mime`);
  for (const rel of relPaths) fs.writeFileSync(path.join(root, rel), `message ${rel}\n`.repeat(200));
  return { root, relPaths };
}

/** Whether this machine can empty one file's pages from the cache. */
function canEvictHere(): boolean {
  const { root, relPaths } = queueWith(4);
  return canEvict(relPaths.map((r) => path.join(root, r)));
}

/** The first scan of a generated tree of `messages` into an empty journal. */
async function firstScan(messages: number, opts: { workersMinFiles?: number; chunkFiles?: number } = {}, cold = false) {
  const root = path.join(temp("mailroom-warm-ws-"), "ws");
  generateIgniteTree(root, messages);
  if (cold) evict((fs.readdirSync(root, { recursive: true }) as string[]).map((r) => path.join(root, r)).filter((f) => fs.statSync(f).isFile()));
  const db = openDb(path.join(temp("mailroom-warm-data-"), "journal.sqlite"));
  try {
    const reader = await openIgnite(root);
    if (!reader) throw new Error("not a workspace");
    return await scanSource({ id: "s", protocol: "ignite", root, reader, error: null }, new JournalWriter(db), { reportProgress: false, ...opts });
  } finally {
    db.close();
  }
}

const onLinux = process.platform === "linux" && diskReadBytes() !== null;
const evictable = onLinux && canEvictHere();

describe.runIf(onLinux)("reading ahead", () => {
  it("reads the regular files inside the root, and no link, FIFO, folder, hard link or missing file", () => {
    const { root } = queueWith(0);
    const outside = path.join(path.dirname(root), "outside.txt");
    fs.writeFileSync(path.join(root, "queue/a.mime"), "x".repeat(300_000)); // past one read of the scratch buffer
    fs.writeFileSync(path.join(root, "queue/b.mime"), "bb");
    fs.writeFileSync(outside, "secret");
    fs.symlinkSync(outside, path.join(root, "queue/link.mime"));
    execFileSync("mkfifo", [path.join(root, "queue/fifo.mime")]);
    fs.mkdirSync(path.join(root, "queue/folder.mime"));
    fs.writeFileSync(path.join(root, "queue/c.mime"), "c");
    fs.linkSync(path.join(root, "queue/c.mime"), path.join(root, "queue/c-link.mime"));
    const relPaths = ["a", "link", "fifo", "folder", "c", "b", "missing", "../../outside"].map((n) => `queue/${n}.mime`);
    // A FIFO waited on would never answer: the test's own timeout is the check.
    expect(warmJob({ id: 1, root, relPaths })).toEqual({ id: 1, read: 2, skipped: 0 });
  });

  it("leaves a chunk unread once its first files all came from the page cache", () => {
    const { root, relPaths } = queueWith(SAMPLE_FILES + 24); // just written: cached
    expect(warmJob({ id: 2, root, relPaths })).toEqual({ id: 2, read: SAMPLE_FILES, skipped: 24 });
  });

  it.runIf(evictable)("reads a chunk that was not in the page cache into it, all of it", () => {
    const { root, relPaths } = queueWith(SAMPLE_FILES + 24);
    const files = relPaths.map((r) => path.join(root, r));
    evict(files);
    expect(warmJob({ id: 3, root, relPaths })).toEqual({ id: 3, read: relPaths.length, skipped: 0 });
    // The load then reads every one of them without the disk.
    expect(diskBytesToRead(files)).toBe(0);
  });

  it.runIf(evictable)("reads on threads of its own, split between them, and tallies what they read", async () => {
    const { root, relPaths } = queueWith(SAMPLE_FILES * 4);
    const files = relPaths.map((r) => path.join(root, r));
    evict(files);
    warmer = FileWarmer.start(root, 2);
    await warmer?.warm(relPaths);
    expect(warmer?.tally).toEqual({ read: relPaths.length, skipped: 0 });
    expect(diskBytesToRead(files)).toBe(0);
  });

  it("answers what was asked once closed: the load never waits on it", async () => {
    const { root, relPaths } = queueWith(50);
    warmer = FileWarmer.start(root, 1);
    const asked = warmer?.warm(relPaths);
    await warmer?.close();
    warmer = null;
    await expect(asked).resolves.toBeUndefined();
  });

  it("reads a first scan's files ahead of its load on worker threads, and says how many in the load's stages", async () => {
    const scanned = await firstScan(450, { workersMinFiles: 0, chunkFiles: 100 });
    expect(scanned.load?.workers).toBeGreaterThan(0);
    // How many depends on how far the workers got before the read-ahead's threads started; that it ran is the point.
    expect(scanned.load?.readAhead).toEqual(expect.any(Number));
  });
});

it("does not read ahead of a load on the main thread whose files are in the page cache", async () => {
  expect((await firstScan(300)).load).toMatchObject({ workers: 0, readAhead: null });
});

it.runIf(evictable)("starts reading ahead of a load on the main thread once its reads need the disk, and says how many it read", async () => {
  const scanned = await firstScan(300, { chunkFiles: 100 }, true);
  expect(scanned.load?.workers).toBe(0);
  // How many depends on whether the warming thread was up (0.1-0.2 s) before the load's 300 small
  // files were read: 0-127 in eight runs. That it started is the point: a warm tree's is null (above).
  expect(scanned.load?.readAhead).toEqual(expect.any(Number));
});
