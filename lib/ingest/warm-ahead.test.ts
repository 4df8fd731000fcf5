// A load that reads on its own thread warms the files after the one it reads, but only once its
// own reads needed the disk (Linux, where the kernel counts a thread's disk reads).
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { canEvict, diskBytesToRead, evict } from "@/lib/testing/page-cache";
import { tempDirs } from "@/lib/testing/temp-dirs";
import { diskReadBytes } from "./disk-reads";
import { WarmAhead } from "./warm-ahead";

const temp = tempDirs();
let open: WarmAhead<{ root: string; relPath: string }> | null = null;
afterEach(async () => {
  await open?.close();
  open = null;
});

function tree(count: number) {
  const root = temp("mailroom-warm-ahead-");
  const relPaths = Array.from({ length: count }, (_, i) => `m${i}.yaml`);
  for (const rel of relPaths) fs.writeFileSync(path.join(root, rel), `line of ${rel}\n`.repeat(300));
  return { root, relPaths, parts: relPaths.map((relPath) => ({ root, relPath })) };
}

const onLinux = process.platform === "linux" && diskReadBytes() !== null;
const evictable = onLinux && (() => {
  const { root, relPaths } = tree(4);
  return canEvict(relPaths.map((r) => path.join(root, r)));
})();

describe.runIf(onLinux)("warming a load's files ahead of it", () => {
  it("starts nothing while the load's reads come from the page cache", async () => {
    const { root, relPaths, parts } = tree(40); // just written: cached
    open = new WarmAhead(parts, (p) => p);
    for (const [i, rel] of relPaths.entries()) await open.around(i, async () => fs.readFileSync(path.join(root, rel)));
    expect(open.warming).toBe(false);
    expect(open.read).toBe(0);
  });

  it.runIf(evictable)("reads the files after the one read into the page cache once two reads needed the disk", async () => {
    const { root, relPaths, parts } = tree(300);
    const files = relPaths.map((r) => path.join(root, r));
    evict(files);
    open = new WarmAhead(parts, (p) => p);
    await open.around(0, async () => fs.readFileSync(files[0]!));
    expect(open.warming).toBe(false); // one read from the disk may be anyone's
    await open.around(1, async () => fs.readFileSync(files[1]!));
    expect(open.warming).toBe(true);
    const deadline = Date.now() + 10_000;
    while (open.read < files.length - 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(open.read).toBe(files.length - 2);
    // The load then reads the rest without the disk.
    expect(diskBytesToRead(files.slice(2))).toBe(0);
  });

  it.runIf(evictable)("warms a part the load inserts among those not read yet, once", async () => {
    const { root, relPaths, parts } = tree(300);
    const files = relPaths.map((r) => path.join(root, r));
    const late = path.join(root, "late.yaml");
    fs.writeFileSync(late, "late\n".repeat(3000));
    evict([...files, late]);
    open = new WarmAhead(parts, (p) => p);
    await open.around(0, async () => fs.readFileSync(files[0]!));
    await open.around(1, async () => fs.readFileSync(files[1]!));
    // A channel's rest, placed after the part being read (EntryLoadFront.insert) among parts already asked for.
    parts.splice(3, 0, { root, relPath: "late.yaml" });
    for (let at = 2; at < 60; at++) await open.around(at, async () => undefined);
    const deadline = Date.now() + 10_000;
    while (open.read < files.length - 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(open.read).toBe(files.length - 1);
    expect(diskBytesToRead([late])).toBe(0);
  });

  it.runIf(evictable)("judges a load found warm again further on, where its older files may not be in the page cache", async () => {
    const { root, relPaths, parts } = tree(1_300);
    const files = relPaths.map((r) => path.join(root, r));
    evict(files.slice(1_000)); // the newest thousand read first, written since the boot; the rest not
    open = new WarmAhead(parts, (p) => p);
    for (const [i, f] of files.slice(0, 1_010).entries()) await open.around(i, async () => fs.readFileSync(f));
    expect(open.warming).toBe(true);
  });

  it("starts nothing for the last few files of a load, found cold or not", async () => {
    const { root, relPaths, parts } = tree(20);
    const files = relPaths.map((r) => path.join(root, r));
    if (evictable) evict(files);
    open = new WarmAhead(parts, (p) => p);
    for (const [i, f] of files.entries()) await open.around(i, async () => fs.readFileSync(f));
    expect(open.warming).toBe(false);
  });
});
