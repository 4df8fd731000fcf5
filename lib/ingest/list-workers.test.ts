// A big tree's first listing on worker threads, a share each: the same files as a listing on the
// main thread, each once, ordered newest first the same way, every folder heard before it is read.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateIgniteTree } from "@/lib/bench/generate";
import type { FoundFile } from "@/lib/protocols";
import { listNoFollow } from "@/lib/protocols/fs-safe";
import { ignite } from "@/lib/protocols/fixtures";
import { openIgnite } from "@/lib/protocols/ignite";
import { copyFixture } from "@/lib/testing/fixtures";
import { tempDirs } from "@/lib/testing/temp-dirs";
import { listOnWorkers, newestOfListed, restChunks, type ListedOnWorkers } from "./list-workers";
import { NAME_CLOCK_SLACK_MS, newestFirst, orderNewestFirst, selectNewest } from "./newest-first";
import type { ReadableSource } from "./sync";
import { nameTimes, pack, PackedTree, unpackedFileAt } from "./packed";
import { IngestWorkers } from "./workers";

const { buildMessage, messageFileName, nameTimeMs } = ignite;

const temp = tempDirs();

async function sourceAt(root: string): Promise<ReadableSource> {
  const reader = await openIgnite(root);
  if (!reader) throw new Error("not a workspace");
  return { id: "s", protocol: "ignite", root, reader, error: null };
}

/** A tree listed on `count` workers, and its packed tree once it is there. */
async function listedOnWorkers(source: ReadableSource, onDir: (dir: string) => void = () => undefined, count = 2): Promise<ListedOnWorkers & { packed: PackedTree }> {
  const workers = IngestWorkers.open(count);
  if (!workers) throw new Error("no worker threads");
  try {
    const listed = await listOnWorkers(source, workers, onDir);
    return { ...listed, packed: await listed.tree };
  } finally {
    await workers.close();
  }
}

const filesOf = ({ packed }: { packed: PackedTree }) => Array.from({ length: packed.size }, (_, i) => packed.fileAt(i));
const byPath = (files: readonly FoundFile[]) => [...files].sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0));
const trees = {
  // Symlinks, a folder where a file belongs, binary and empty files.
  fixture: () => copyFixture("ignite", path.join(temp("mailroom-listw-ws-"), "ws")),
  generated: () => {
    const root = path.join(temp("mailroom-listw-ws-"), "ws");
    generateIgniteTree(root, 3000);
    return root;
  },
};

describe("a first listing on worker threads", () => {
  it.each(Object.keys(trees) as (keyof typeof trees)[])("lists the same files as the main thread, each once, newest first in the same order (%s)", async (tree) => {
    const source = await sourceAt(trees[tree]());
    const heard: string[] = [];
    const listed = await listedOnWorkers(source, (dir) => heard.push(dir));
    const dirsHere: string[] = [];
    const here = await source.reader.list({ stat: false, onDir: (dir) => dirsHere.push(dir) });
    const there = filesOf(listed);
    expect(listed.workers).toBe(2);
    expect(new Set(there.map((f) => f.relPath)).size).toBe(there.length);
    expect(byPath(there)).toEqual(byPath(here));
    expect(new Set(heard)).toEqual(new Set(dirsHere));
    expect(listed.unreadable).toEqual([]);
    // Newest first: the same times in the same order (files of one time may come in another order).
    const timeOf = source.reader.nameTimeMs?.bind(source.reader);
    if (!timeOf) throw new Error("IGNITE names tell their time");
    const order = Array.from(orderNewestFirst(listed.packed.times), (i) => listed.packed.fileAt(i).relPath);
    expect(order.map((p) => timeOf(p))).toEqual(newestFirst(here, timeOf).times);
    // Chunk 0 picked by a selection, then the rest in chunks: every file once, in that order.
    const first = newestOfListed(listed, 250);
    expect(first.found).toEqual(first.files.map((i) => listed.packed.fileAt(i)));
    const rest = restChunks(listed.packed, orderNewestFirst(listed.packed.times), first.files, 400);
    const chunks = [first.files.map((i) => listed.packed.fileAt(i)), ...Array.from({ length: rest.count }, (_, i) => rest.at(i))];
    expect(chunks.flat().map((f) => f.relPath)).toEqual(order);
  });

  it("hears each folder before it is read: a file written then is listed", async () => {
    const root = trees.generated();
    const source = await sourceAt(root);
    const written: string[] = [];
    const date = new Date("2026-06-01T00:00:00Z");
    const listed = await listedOnWorkers(source, (dir) => {
      // Each share reads the folders listed from (their files are shared out by name): one
      // written there as the other share reads them is the watch's (the folder was heard first).
      if (source.reader.watchDirs.includes(dir)) return;
      const name = messageFileName("task_assignment", new Date(date.getTime() + written.length));
      fs.writeFileSync(path.join(dir, name), buildMessage({ from: "leader", to: ["strategist"], type: "task_assignment", body: "x: y\n", date }));
      written.push(path.relative(root, path.join(dir, name)));
    });
    expect(written.length).toBeGreaterThan(10);
    const there = new Set(filesOf(listed).map((f) => f.relPath));
    for (const p of written) expect(there).toContain(p);
  });

  it("makes the claim of its newest chunk from the newest file left, before the rest is ordered", async () => {
    const source = await sourceAt(trees.generated());
    const listed = await listedOnWorkers(source);
    const { files, front } = newestOfListed(listed, 250);
    const order = orderNewestFirst(listed.packed.times);
    const after = listed.packed.times[order[250] as number] as number;
    expect(front.chunkDone(0, [])).toBe(after + NAME_CLOCK_SLACK_MS);
    // Every file left is at or before it; every file loaded at or after it.
    for (const i of order.subarray(250)) expect(listed.packed.times[i]).toBeLessThanOrEqual(after);
    for (const i of files) expect(listed.packed.times[i]).toBeGreaterThanOrEqual(after);
    // Cut into chunks, the rest claims the same, then chunk by chunk down to every file.
    const rest = restChunks(listed.packed, order, files, 1000);
    front.restIs(rest.firstTimes);
    expect(front.completeAfterMs()).toBe(after + NAME_CLOCK_SLACK_MS);
    front.chunkDone(1, []);
    expect(front.completeAfterMs()).toBe((rest.firstTimes[1] as number) + NAME_CLOCK_SLACK_MS);
    for (let i = 2; i <= rest.count; i++) front.chunkDone(i, []);
    expect(front.completeAfterMs()).toBe(Number.MIN_SAFE_INTEGER);
  });
});

describe("the newest chunk of a tree listed in shares", () => {
  it.each([1, 2, 3])("is picked from the shares' newest as a selection over the whole tree picks it, with the same claim (%i shares)", async (of) => {
    const root = trees.generated();
    // Files whose names tell no time come first; files of one time, in listing order.
    const queue = path.join(root, ".ignite", "queue");
    for (const agent of fs.readdirSync(queue).slice(0, 4)) {
      fs.writeFileSync(path.join(queue, agent, "no-time.mime"), "");
      fs.writeFileSync(path.join(queue, agent, "task_assignment_1795400000000001.mime"), "");
    }
    const listed = await listedOnWorkers(await sourceAt(root), () => undefined, of);
    expect(listed.size).toBe(listed.packed.size);
    for (const chunkFiles of [250, 7]) {
      const picked = newestOfListed(listed, chunkFiles);
      const whole = selectNewest(listed.packed.times, Math.min(250, chunkFiles));
      expect(picked.files).toEqual(whole.first);
      expect(picked.found).toEqual(whole.first.map((i) => listed.packed.fileAt(i)));
      // No claim while files without a time are left; the first chunk takes them.
      const next = whole.next === null ? null : listed.packed.timeAt(whole.next);
      expect(picked.front.chunkDone(0, [])).toBe(next === null ? null : next + NAME_CLOCK_SLACK_MS);
    }
  });

  it("orders files of one time across shares by their place in the tree, and files without a time first", () => {
    const share = (count: number, at: number[], times: number[]) => ({
      count,
      newest: { at, times, files: at.map((j) => ({ relPath: `${count}/${j}`, kind: "file" as const, size: -1, mtimeMs: -1, ino: -1 })) },
    });
    // Tree places: share 0 is 0-4, share 1 is 5-7; in the tree's order, 2 and 6 (no time), then 0, 4, 5 (100), 7 (90).
    const shares = [share(5, [2, 4, 0], [NaN, 100, 100]), share(3, [1, 0, 2], [NaN, 100, 90])];
    const two = newestOfListed({ shares }, 2);
    expect(two.files).toEqual([2, 6]);
    expect(two.found.map((f) => f.relPath)).toEqual(["5/2", "3/1"]);
    expect(two.front.chunkDone(0, [])).toBe(100 + NAME_CLOCK_SLACK_MS);
    // The next file left tells no time: nothing can be claimed.
    const one = newestOfListed({ shares: shares.map((s) => ({ ...s, newest: { at: s.newest.at.slice(0, 2), times: s.newest.times.slice(0, 2), files: s.newest.files.slice(0, 2) } })) }, 1);
    expect(one.files).toEqual([2]);
    expect(one.front.chunkDone(0, [])).toBeNull();
    // A share that sent fewer than the chunk and one more, of more files, cannot tell the tree's newest.
    expect(() => newestOfListed({ shares: [share(9, [0, 1], [5, 4])] }, 2)).toThrow();
  });
});

describe("a packed listing", () => {
  it("holds the files listed as objects, then each folder's by name, with their paths, kinds and name times", () => {
    const link: FoundFile = { relPath: "q/a/link_1795400000000001.mime", kind: "symlink", size: 3, mtimeMs: 5, ino: 7 };
    const plain: FoundFile = { relPath: "q/a/b_1795400000000002.mime", kind: "file", size: -1, mtimeMs: -1, ino: -1 };
    const folders = [{ relDir: "q/c", names: ["x_1795400000000003.mime", "no-time.mime"] }, { relDir: "q/empty", names: [] }, { relDir: "", names: ["top_1795400000.mime"] }];
    const tree = new PackedTree([pack([link, plain], folders, nameTimes([link, plain], folders, nameTimeMs))]);
    const files = Array.from({ length: tree.size }, (_, i) => tree.fileAt(i));
    // The same files, in the same places, before they are packed (a share's newest are sent then).
    expect(files.map((_, i) => unpackedFileAt([link, plain], folders, i))).toEqual(files);
    expect(() => unpackedFileAt([link, plain], folders, files.length)).toThrow(RangeError);
    expect(files).toEqual([
      link,
      plain,
      { ...plain, relPath: "q/c/x_1795400000000003.mime" },
      { ...plain, relPath: "q/c/no-time.mime" },
      { ...plain, relPath: "top_1795400000.mime" },
    ]);
    expect(Array.from({ length: tree.size }, (_, i) => tree.timeAt(i))).toEqual([1795400000000, 1795400000000, 1795400000000, null, 1795400000000]);
  });

  it("asks the protocol for a time by a file's bare name, never by its path", () => {
    const asked: string[] = [];
    const timeOf = (name: string) => {
      asked.push(name);
      return name.includes("/") ? null : Number(/_(\d+)\.mime$/.exec(name)?.[1] ?? NaN);
    };
    const times = nameTimes([{ ...unpackedFileAt([], [{ relDir: "q/a", names: ["x_7.mime"] }], 0) }], [{ relDir: "q/b", names: ["y_8.mime", "z_9.mime"] }], timeOf);
    expect(asked).toEqual(["x_7.mime", "y_8.mime", "z_9.mime"]);
    expect(Array.from(times)).toEqual([7, 8, 9]);
  });

  it("has no name times when the protocol's names tell none", () => {
    expect(Array.from(nameTimes([], [{ relDir: "q", names: ["a_1795400000000003.mime"] }], undefined))).toEqual([NaN]);
  });
});

describe("a listing in shares", () => {
  it.each([1, 2, 3, 5])("lists every file in exactly one of %i shares", async (of) => {
    const root = trees.generated();
    const dir = path.join(root, ".ignite", "queue");
    fs.writeFileSync(path.join(dir, "loose.mime"), "");
    const whole = await listNoFollow(root, dir, { maxDepth: 6, accept: () => true, stat: false });
    const shares = await Promise.all(Array.from({ length: of }, (_, part) => listNoFollow(root, dir, { maxDepth: 6, accept: () => true, stat: false, share: { part, of } })));
    const all = shares.flat().map((f) => f.relPath);
    expect(new Set(all).size).toBe(all.length);
    // Shared out, not all in one.
    if (of > 1) expect(shares.filter((s) => s.length > 0).length).toBeGreaterThan(1);
    expect(all.sort()).toEqual(whole.map((f) => f.relPath).sort());
  });
});
