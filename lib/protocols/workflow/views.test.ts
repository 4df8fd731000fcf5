// The workflow read side's health and logs, on a copy of fixtures/workflow.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RefusedFile } from "@/lib/protocols/safe-open";
import { copyFixture } from "@/lib/testing/fixtures";
import { detect, type WorkflowLayout } from "./detect";
import { workflowReadSide as side } from "./index";

const ID = "orchestrate_20260125_143000_a1b2c3d4";
let root: string;
let layout: WorkflowLayout;
const wf = (...parts: string[]) => path.join(root, ".claude", "workflow", ID, ...parts);
const beat = (agent: string, at: Date) => fs.writeFileSync(wf("state", "heartbeat", `${agent}.ts`), at.toISOString());

beforeEach(async () => {
  root = copyFixture("workflow");
  const found = await detect(root);
  if (!found) throw new Error("fixture not detected");
  layout = found;
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("workflow health", () => {
  it("names each agent of the current workflow: finished ones in the registry's word, old heartbeats unresponsive", async () => {
    const health = await side.health!(layout, Date.now());
    expect(health.monitor).toBeNull();
    expect(health.session).toEqual({ name: ID, startedAt: "2026-01-25T14:30:00.000Z" });
    expect(health.agents.map((a) => [a.name, a.health])).toEqual([
      ["agent_architecture", "completed"],
      ["agent_cognitive", "unresponsive"],
      ["agent_security", "unresponsive"],
      ["unknown", "completed"],
    ]);
    expect(health.agents[2]?.detail).toBe("security · registry: registered · last heartbeat 2026-01-25T14:35:25.412Z");
  });

  it("is healthy while the heartbeat file is fresh, and unresponsive once it is older than 30 s", async () => {
    const now = Date.now();
    beat("agent_security", new Date(now - 5_000));
    const security = async () => (await side.health!(layout, now)).agents.find((a) => a.name === "agent_security")?.health;
    expect(await security()).toBe("healthy");
    beat("agent_security", new Date(now - 31_000));
    expect(await security()).toBe("unresponsive");
  });

  it("reads no heartbeat through a link or past its size, and falls back to the last workflow without current.json", async () => {
    const now = Date.now();
    const outside = path.join(root, "outside.ts");
    fs.writeFileSync(outside, new Date(now).toISOString());
    fs.rmSync(wf("state", "heartbeat", "agent_security.ts"));
    fs.symlinkSync(outside, wf("state", "heartbeat", "agent_security.ts"));
    fs.writeFileSync(wf("state", "heartbeat", "agent_new.ts"), `${new Date(now).toISOString()}${" ".repeat(300)}`);
    fs.rmSync(path.join(root, ".claude", "workflow", "current.json"));
    const health = await side.health!(layout, now);
    expect(health.session).toEqual({ name: ID, startedAt: null });
    // The registry's last_heartbeat (January) stands in for the refused link.
    expect(health.agents.find((a) => a.name === "agent_security")?.health).toBe("unresponsive");
    expect(health.agents.find((a) => a.name === "agent_new")).toMatchObject({ health: "unknown", detail: "no heartbeat" });
  });
});

describe("workflow logs", () => {
  it("lists each workflow's three logs by one-part names, including a workflow started later", async () => {
    expect((await side.logs!(layout)).map((l) => l.name)).toEqual([`${ID}.events.jsonl`, `${ID}.errors.jsonl`, `${ID}.actions.jsonl`]);
    const later = path.join(root, ".claude", "workflow", "review_20260126_090000_ffff0000");
    fs.mkdirSync(path.join(later, "channel"), { recursive: true });
    fs.mkdirSync(path.join(later, "logs"));
    fs.writeFileSync(path.join(later, "logs", "events.jsonl"), "{}\n");
    expect((await side.logs!(layout)).map((l) => l.name)).toContain("review_20260126_090000_ffff0000.events.jsonl");
  });

  it("reads whole lines from an offset, and nothing for a name that is not one of its logs", async () => {
    const file = wf("logs", "errors.jsonl");
    const size = fs.statSync(file).size;
    fs.appendFileSync(file, '{"id":"err_new"}\n{"id":"half');
    const slice = await side.readLog!(layout, `${ID}.errors.jsonl`, size, 64 * 1024);
    expect(slice).toEqual({ text: '{"id":"err_new"}\n', from: size, to: size + 17, size: size + 28 });
    const tail = await side.readLog!(layout, `${ID}.errors.jsonl`, -1, 64);
    expect(tail?.text.endsWith('{"id":"err_new"}\n')).toBe(true);
    for (const name of ["errors.jsonl", `${ID}.agents.json`, `../${ID}.errors.jsonl`, `nope.errors.jsonl`]) {
      expect(await side.readLog!(layout, name, -1, 64)).toBeNull();
    }
    fs.rmSync(file);
    expect(await side.readLog!(layout, `${ID}.errors.jsonl`, -1, 64)).toBeNull();
  });

  it("refuses a log that is a link to a file outside the workspace", async () => {
    fs.rmSync(wf("logs", "events.jsonl"));
    fs.symlinkSync("/etc/hostname", wf("logs", "events.jsonl"));
    await expect(side.readLog!(layout, `${ID}.events.jsonl`, -1, 64)).rejects.toBeInstanceOf(RefusedFile);
    expect((await side.logs!(layout)).map((l) => l.name)).not.toContain(`${ID}.events.jsonl`);
  });
});
