// The --mixed bench's tree: every protocol's read side finds its layout and reads its share of the
// messages without a problem; shogun sits in its own root, where IGNITE v2's reader finds nothing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { findIgniteLayout } from "@/lib/protocols/ignite";
import { igniteYamlReadSide } from "@/lib/protocols/ignite-yaml";
import { kicklangReadSide } from "@/lib/protocols/kicklang";
import { shogunReadSide } from "@/lib/protocols/shogun";
import { workflowReadSide } from "@/lib/protocols/workflow";
import { readTree } from "@/lib/testing/read-tree";
import { generateMixed } from "./mixed";

let work = "";
afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

it("holds all five layouts, a fifth of the messages each, shogun's in a second root", async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "bench-mixed-"));
  const tree = generateMixed(work, 1003, false);
  expect(tree.messages).toBe(1003);
  expect(tree.parts).toEqual({ ignite: 203, "ignite-yaml": 200, shogun: 200, workflow: 200, kicklang: 200 });
  const [root, shogunRoot] = tree.roots as [string, string];
  expect((await findIgniteLayout(root))?.runtimePrefix).toBe(".ignite/");
  for (const [side, r] of [[igniteYamlReadSide, root], [workflowReadSide, root], [kicklangReadSide, root], [shogunReadSide, shogunRoot]] as const) {
    const { layout, problems, entries } = await readTree(side, r);
    expect(layout?.protocol).toBe(side.protocol);
    expect(problems).toEqual([]);
    expect(entries.filter((e) => e.kind === "message")).toHaveLength(200);
  }
  expect(await shogunReadSide.detect(root)).toBeNull();
  expect(await igniteYamlReadSide.detect(shogunRoot)).toBeNull();
});
