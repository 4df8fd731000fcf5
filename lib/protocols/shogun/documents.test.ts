// shogun's dashboard.md as a document, on a copy of fixtures/shogun.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { copyFixture } from "@/lib/testing/fixtures";
import { detect, type ShogunLayout } from "./detect";
import { shogunReadSide as side } from "./index";

let root: string;
let layout: ShogunLayout;
beforeEach(async () => {
  root = copyFixture("shogun");
  const found = await detect(root);
  if (!found) throw new Error("fixture not detected");
  layout = found;
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

it("offers dashboard.md while it is a file at the root, and no health or logs (the protocol keeps none)", async () => {
  expect(await side.documents!(layout)).toEqual([{ name: "dashboard.md", relPath: "dashboard.md" }]);
  expect(side.health).toBeUndefined();
  expect(side.logs).toBeUndefined();
  fs.rmSync(path.join(root, "dashboard.md"));
  expect(await side.documents!(layout)).toEqual([]);
  // Written after the source was found: offered at the next look.
  fs.writeFileSync(path.join(root, "dashboard.md"), "# board\n");
  expect(await side.documents!(layout)).toHaveLength(1);
  fs.rmSync(path.join(root, "dashboard.md"));
  fs.symlinkSync("/etc/hostname", path.join(root, "dashboard.md"));
  expect(await side.documents!(layout)).toEqual([]);
});
