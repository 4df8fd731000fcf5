// Each wave-2 detector claims its own fixture and rejects every other one (IGNITE v3 included),
// and a root that mixes two layouts is claimed by both of their detectors.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { copyFixture, fixturePath } from "@/lib/testing/fixtures";
import { detect as detectIgniteYaml } from "./ignite-yaml";
import { detect as detectKicklang } from "./kicklang";
import { detect as detectShogun } from "./shogun";
import { detect as detectWorkflow } from "./workflow";

const DETECTORS = { "ignite-yaml": detectIgniteYaml, shogun: detectShogun, workflow: detectWorkflow, kicklang: detectKicklang } as const;
type Name = keyof typeof DETECTORS;

const ROOTS: Record<string, string> = {
  ignite: fixturePath("ignite", "workspace"),
  "ignite-runtime": fixturePath("ignite", "workspace", ".ignite"),
  "ignite-yaml": fixturePath("ignite-yaml", "workspace"),
  shogun: fixturePath("shogun"),
  workflow: fixturePath("workflow"),
  kicklang: fixturePath("kicklang"),
};

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) fs.rmSync(t, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-detect-"));
  temps.push(dir);
  return dir;
}

describe.each(Object.keys(DETECTORS) as Name[])("detect %s", (name) => {
  const detect = DETECTORS[name];
  it.each(Object.keys(ROOTS))("on the %s fixture", async (fixture) => {
    const layout = await detect(ROOTS[fixture]!);
    if (fixture === name) expect(layout).toMatchObject({ protocol: name, root: ROOTS[fixture] });
    else expect(layout).toBeNull();
  });

  it("rejects an empty folder and a missing one", async () => {
    const dir = tempDir();
    expect(await detect(dir)).toBeNull();
    expect(await detect(path.join(dir, "missing"))).toBeNull();
  });

  it("never follows a symlink to its layout", async () => {
    const dir = tempDir();
    const copy = copyFixture(name);
    temps.push(copy);
    for (const entry of fs.readdirSync(copy)) fs.symlinkSync(path.join(copy, entry), path.join(dir, entry));
    expect(await detect(dir)).toBeNull();
  });
});

describe("a root mixing two layouts", () => {
  it("is claimed by both detectors: IGNITE v2 with workflow, shogun with KickLang", async () => {
    const a = tempDir();
    copyFixture("ignite-yaml", a);
    copyFixture("workflow", a);
    expect(await detectIgniteYaml(a)).toMatchObject({ protocol: "ignite-yaml" });
    expect(await detectWorkflow(a)).toMatchObject({ protocol: "workflow", workflows: ["orchestrate_20260125_143000_a1b2c3d4"] });
    expect(await detectShogun(a)).toBeNull();
    expect(await detectKicklang(a)).toBeNull();
    const b = tempDir();
    copyFixture("shogun", b);
    copyFixture("kicklang", b);
    expect(await detectShogun(b)).toMatchObject({ protocol: "shogun", inboxDir: path.join(b, "queue", "inbox") });
    expect(await detectKicklang(b)).toMatchObject({ protocol: "kicklang", channelsDir: path.join(b, ".kicklang", "channels") });
    expect(await detectIgniteYaml(b)).toBeNull();
    expect(await detectWorkflow(b)).toBeNull();
  });
});

describe("shogun's inbox folder link", () => {
  it("follows queue/inbox when it is a link, even to outside the root, and watches where it points", async () => {
    const root = copyFixture("shogun");
    const outside = tempDir();
    temps.push(root);
    fs.renameSync(path.join(root, "queue", "inbox"), path.join(outside, "inbox"));
    fs.rmSync(path.join(root, "queue", "shogun_to_karo.yaml"));
    fs.symlinkSync(path.join(outside, "inbox"), path.join(root, "queue", "inbox"));
    expect(await detectShogun(root)).toMatchObject({
      protocol: "shogun", inboxDir: fs.realpathSync(path.join(outside, "inbox")), inboxLinked: true,
      dashboard: path.join(root, "dashboard.md"), watchDirs: [path.join(root, "queue"), fs.realpathSync(path.join(outside, "inbox"))],
    });
  });

  it("does not follow a link to an inbox file inside the folder, and claims a tree with only shogun_to_karo.yaml", async () => {
    const root = tempDir();
    const elsewhere = tempDir();
    fs.mkdirSync(path.join(root, "queue", "inbox"), { recursive: true });
    fs.writeFileSync(path.join(elsewhere, "karo.yaml"), "messages: []\n");
    fs.symlinkSync(path.join(elsewhere, "karo.yaml"), path.join(root, "queue", "inbox", "karo.yaml"));
    expect(await detectShogun(root)).toBeNull();
    fs.writeFileSync(path.join(root, "queue", "shogun_to_karo.yaml"), "commands: []\n");
    expect(await detectShogun(root)).toMatchObject({ protocol: "shogun", inboxLinked: false, dashboard: null });
  });
});

describe("an IGNITE v3 queue holding a v2 message for a moment", () => {
  it("is not claimed as IGNITE v2 when the v3 runtime directory is the root", async () => {
    const ws = copyFixture("ignite");
    temps.push(ws);
    const runtime = path.join(ws, ".ignite");
    const v2 = fs.readFileSync(fixturePath("ignite-yaml", "workspace", "queue", "innovator", "improvement_request_1770263144310556.yaml"));
    // In a folder of its own, so that folder alone looks like v2.
    fs.mkdirSync(path.join(runtime, "queue", "ignitian_9"));
    fs.writeFileSync(path.join(runtime, "queue", "ignitian_9", "improvement_request_1770263144310556.yaml"), v2);
    expect(await detectIgniteYaml(runtime)).toBeNull();
    // The same file in a tree of v2 files alone is v2.
    const only = tempDir();
    fs.mkdirSync(path.join(only, "queue", "innovator"), { recursive: true });
    fs.writeFileSync(path.join(only, "queue", "innovator", "improvement_request_1770263144310556.yaml"), v2);
    expect(await detectIgniteYaml(only)).toMatchObject({ protocol: "ignite-yaml", agents: ["innovator"] });
  });
});
