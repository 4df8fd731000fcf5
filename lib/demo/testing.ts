// Test helpers for every protocol's demo team: walk the tree it wrote, and a clock tests move by hand.
import fs from "node:fs";
import path from "node:path";

/** Every file under `dir` (relative paths, "/" separators), dot files included. */
export function walk(dir: string, base = dir): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(full, base) : [path.relative(base, full).split(path.sep).join("/")];
  });
}

export class FakeClock {
  constructor(public ms: number) {}
  readonly now = () => new Date(this.ms);
}
