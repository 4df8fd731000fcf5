// A whole tree through one wave-2 read side, as the core drives it: detect the root, place every
// file, read the placed ones whole, resolve. For tests of generated trees.
import fs from "node:fs";
import path from "node:path";
import type { ProtocolReadSide } from "@/lib/protocols/layout";

function filesUnder(root: string, dir = ""): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((d) => {
    const rel = dir === "" ? d.name : `${dir}/${d.name}`;
    return d.isDirectory() ? filesUnder(root, rel) : [rel];
  });
}

export async function readTree(side: ProtocolReadSide, root: string) {
  const layout = await side.detect(root);
  const files = filesUnder(root);
  const placed = files.filter((rel) => side.place(rel) !== null);
  const reads = placed.map((rel) => side.read(rel, fs.readFileSync(path.join(root, rel))));
  const entries = side.resolve(reads.flatMap((r) => r.entries));
  return { layout, files, placed, problems: [...reads.flatMap((r) => r.problems), ...entries.flatMap((e) => e.problems)], entries };
}
