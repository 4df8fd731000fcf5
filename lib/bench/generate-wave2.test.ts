// The bench's generated trees stay valid: each protocol's own read side detects the root, places
// every file, reads it without a problem and counts the messages the generator says it wrote.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { igniteYamlReadSide } from "@/lib/protocols/ignite-yaml";
import { kicklangReadSide } from "@/lib/protocols/kicklang";
import type { ProtocolReadSide } from "@/lib/protocols/layout";
import { readTree } from "@/lib/testing/read-tree";
import { shogunReadSide } from "@/lib/protocols/shogun";
import { workflowReadSide } from "@/lib/protocols/workflow";
import { generateIgniteYaml, generateKicklang, generateShogun, generateWorkflow, type GeneratedPart } from "./generate-wave2";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function tempRoot(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "bench-wave2-"));
  dirs.push(d);
  return d;
}

const CASES: Array<[string, ProtocolReadSide, (root: string, n: number) => GeneratedPart]> = [
  ["ignite-yaml", igniteYamlReadSide, generateIgniteYaml],
  ["shogun", shogunReadSide, generateShogun],
  ["workflow", workflowReadSide, generateWorkflow],
  ["kicklang", kicklangReadSide, generateKicklang],
];

describe.each(CASES)("the bench's %s tree", (_name, side, generate) => {
  it("is read by the protocol's own read side: every file placed, no problem, every message counted", async () => {
    const root = tempRoot();
    // 2,101: more than one shogun inbox, workflow and KickLang thread, and not a round number.
    const part = generate(root, 2101);
    const { layout, files, placed, problems, entries } = await readTree(side, root);
    expect(layout).toMatchObject({ protocol: side.protocol });
    expect(placed).toEqual(files);
    expect(files).toHaveLength(part.files);
    expect(problems).toEqual([]);
    expect(entries.filter((e) => e.kind === "message")).toHaveLength(part.messages);
    expect(part.messages).toBe(2101);
    const declared = new Set(side.statuses.map((s) => s.id));
    expect(entries.filter((e) => !declared.has(e.status))).toEqual([]);
  });

  it("is the same tree for the same seed", async () => {
    const [a, b] = [tempRoot(), tempRoot()];
    generate(a, 300);
    generate(b, 300);
    const contents = async (root: string) => (await readTree(side, root)).files.sort().map((rel) => [rel, fs.readFileSync(path.join(root, rel), "utf8")]);
    expect(await contents(a)).toEqual(await contents(b));
  });
});

describe("the bench's shogun inboxes", () => {
  it("stay under the 50-message overflow rule, so no inbox is trimmed into the archive", async () => {
    const root = tempRoot();
    generateShogun(root, 2101);
    const { entries } = await readTree(shogunReadSide, root);
    const perInbox = new Map<string, number>();
    for (const e of entries) perInbox.set(e.agent, (perInbox.get(e.agent) ?? 0) + 1);
    expect(Math.max(...perInbox.values())).toBeLessThanOrEqual(50);
  });
});

describe("the bench's workflow tree", () => {
  it("acks every task_assign, so none is shown overdue", async () => {
    const root = tempRoot();
    generateWorkflow(root, 1500);
    const { entries } = await readTree(workflowReadSide, root);
    const assigns = entries.filter((e) => e.type === "task_assign");
    expect(assigns.length).toBe(500);
    expect(entries.filter((e) => e.kind === "ack")).toHaveLength(1000);
    expect(assigns.filter((e) => e.status !== "processed").map((e) => e.status)).toEqual([]);
  });
});
