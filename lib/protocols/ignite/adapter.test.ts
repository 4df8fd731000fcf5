// IGNITE v3 as the contract offers it: the compose form's words as data, compose and the
// operator's actions planned (the dry run) apart from their writes. Reached through
// `@/lib/protocols`, as lib/operations and the pages reach it.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { adapterFor } from "@/lib/protocols";
import type { FileActionTarget } from "@/lib/protocols/types";
import { hasTemplate, PRIORITIES, STANDARD_TYPES, templateFor } from "./templates";
import { removeTemp, tempWorkspace } from "./test-fixture";

const STUCK = ".ignite/queue/evaluator/processed/evaluation_request_1795136092377001.mime";
const QUEUED = ".ignite/queue/leader/progress_update_1795136392801166.mime";
const DL_TASK = ".ignite/queue/dead_letter/task_assignment_1795135151004518_dlq_1795136385.mime";

const ignite = adapterFor("ignite");
let ws = "";
beforeEach(() => {
  ws = tempWorkspace();
});
afterEach(() => removeTemp(ws));

const on = (relPath: string, t: Omit<FileActionTarget, "root" | "relPath" | "abs">): FileActionTarget => ({ root: ws, relPath, abs: path.join(ws, relPath), ...t });

describe("IGNITE v3 through the contract", () => {
  it("gives its compose form's words as plain data: types, priorities and each type's template", () => {
    const words = ignite?.compose?.vocabulary;
    expect(words).toBeDefined();
    expect(JSON.parse(JSON.stringify(words))).toEqual(words);
    expect(words?.types).toEqual(STANDARD_TYPES);
    expect(words?.priorities).toEqual(PRIORITIES);
    for (const { type } of STANDARD_TYPES) {
      expect(Object.hasOwn(words?.templates ?? {}, type), type).toBe(hasTemplate(type));
      if (hasTemplate(type)) expect(words?.templates[type]).toBe(templateFor(type));
    }
  });

  it("answers a message with its reply plan", () => {
    const plan = ignite?.compose?.reply(
      { source: "ws", messageId: "<m@ignite.local>", from: "leader", to: ["strategist"], type: "strategy_request", threadId: "thr_1", repository: null, issue: null, data: null },
      ["leader", "strategist"],
    );
    expect(plan).toMatchObject({ from: "strategist", to: ["leader"], type: "strategy_response", inReplyTo: "<m@ignite.local>", threadId: "thr_1" });
  });

  it("plans one file per recipient without writing, then writes them all", async () => {
    const target = await ignite?.compose?.open(ws);
    if (!target) throw new Error("the fixture workspace should open for compose");
    expect(await target.checkRecipients(["leader", "nobody"], false)).toEqual({
      missing: ["nobody"],
      problem: '"nobody" has no queue folder (.ignite/queue/nobody); send "createQueues": true to create it',
    });
    const message = { from: "user", to: ["leader", "nobody"], cc: [], type: "user_goal", priority: "normal", body: "goal: x\n", threadId: "", inReplyTo: "", repository: "", issue: "" };
    const planned = await target.plan(message, ["nobody"], new Date("2026-11-26T12:00:00Z"));
    expect(planned.files.map((f) => [f.agent, f.newQueue])).toEqual([["leader", false], ["nobody", true]]);
    for (const f of planned.files) {
      expect(f.path).toMatch(new RegExp(`^\\.ignite/queue/${f.agent}/user_goal_\\d+\\.mime$`));
      expect(fs.existsSync(path.join(ws, f.path))).toBe(false);
    }
    const written = await planned.write();
    expect(written).toEqual(planned.files.map((f) => f.path));
    for (const [i, rel] of written.entries()) expect(fs.readFileSync(path.join(ws, rel), "utf8")).toBe(planned.files[i]?.content);
  });

  it("takes back the copies it wrote when a later one fails, by inode: one its agent already moved on stays, and the error says so", async () => {
    const target = await ignite?.compose?.open(ws);
    if (!target) throw new Error("the fixture workspace should open for compose");
    const message = { from: "user", to: ["leader", "innovator", "nobody"], cc: [], type: "user_goal", priority: "normal", body: "goal: x\n", threadId: "", inReplyTo: "", repository: "", issue: "" };
    const planned = await target.plan(message, ["nobody"], new Date("2026-11-26T12:00:00Z"));
    // The third recipient's queue turns into a link before the write: Mailroom never writes through one.
    fs.symlinkSync(path.join(ws, ".ignite", "queue", "leader"), path.join(ws, ".ignite", "queue", "nobody"));
    await expect(planned.write()).rejects.toMatchObject({ status: 400 });
    for (const f of planned.files) expect(fs.existsSync(path.join(ws, f.path)), f.path).toBe(false);

    fs.unlinkSync(path.join(ws, ".ignite", "queue", "nobody"));
    const again = await target.plan(message, ["nobody"], new Date("2026-11-26T12:00:01Z"));
    const [first, second, third] = again.files;
    if (!first || !second || !third) throw new Error("three copies planned");
    // The leader's monitor takes its copy (to processed/) just as the third copy fails.
    const picked = path.join(ws, ".ignite", "queue", "leader", "processed", path.basename(first.path));
    const link = fs.promises.link;
    const spy = vi.spyOn(fs.promises, "link").mockImplementation(async (from, to) => {
      // Named through the held folder (/proc/self/fd/N/<name>): the third copy's link is the one to its name.
      if (!String(to).endsWith(`/${path.basename(third.path)}`)) return link(from, to);
      fs.renameSync(path.join(ws, first.path), picked);
      throw Object.assign(new Error("EIO: i/o error"), { code: "EIO" });
    });
    try {
      const err = await again.write().catch((e: unknown) => e);
      // Before: "nothing was written", though the leader had its copy, so sending again delivered it twice.
      expect(err).toMatchObject({ status: 409, code: "partly_sent", message: expect.stringContaining(`but ${first.path} had already been taken by its agent and stays sent`) as string });
    } finally {
      spy.mockRestore();
    }
    expect(fs.existsSync(picked)).toBe(true);
    expect(fs.existsSync(path.join(ws, second.path))).toBe(false);
  });

  it("plans Retry now as a dry run (nothing moves), and `run` moves the file and says the backoff drawn", async () => {
    const plan = await ignite?.fileActions?.plan("retry", on(STUCK, { folder: "processed", status: "processing", agent: "evaluator", heldAgent: null }), {});
    const back = ".ignite/queue/evaluator/evaluation_request_1795136092377001.mime";
    expect(plan).toMatchObject({ path: back, touched: [back] });
    expect(fs.existsSync(path.join(ws, STUCK))).toBe(true);
    expect(fs.existsSync(path.join(ws, back))).toBe(false);
    expect(await plan?.run()).toMatch(/^as retry \d+, next attempt in \d+ s$/);
    expect(fs.existsSync(path.join(ws, STUCK))).toBe(false);
    expect(fs.readFileSync(path.join(ws, back), "utf8")).toContain("X-IGNITE-Retry-Count:");
  });

  it("plans Retry now on a message moved on just after it was read as a 409, not a raw ENOENT (a discard racing it)", async () => {
    const stat = fs.promises.stat;
    vi.spyOn(fs.promises, "stat").mockImplementation(async (file, opts) => {
      if (String(file).endsWith(STUCK)) fs.rmSync(path.join(ws, STUCK));
      return stat(file, opts);
    });
    try {
      const planned = ignite?.fileActions?.plan("retry", on(STUCK, { folder: "processed", status: "processing", agent: "evaluator", heldAgent: null }), {});
      await expect(planned).rejects.toMatchObject({ status: 409, code: "source_gone" });
    } finally {
      vi.restoreAllMocks();
    }
  });

  it("runs Retry now and a requeue from processed/ only on the text they were planned from (the monitor may rewrite it meanwhile)", async () => {
    const back = ".ignite/queue/evaluator/evaluation_request_1795136092377001.mime";
    for (const action of ["retry", "requeue"] as const) {
      const plan = await ignite?.fileActions?.plan(action, on(STUCK, { folder: "processed", status: "processing", agent: "evaluator", heldAgent: null }), {});
      const delivered = fs.readFileSync(path.join(ws, STUCK), "utf8").replace(/^X-IGNITE-Status: .*$/m, "X-IGNITE-Status: delivered");
      fs.writeFileSync(path.join(ws, STUCK), delivered);
      // Before, the stale "processing" copy went back to the queue and the delivered one was deleted: delivered twice.
      await expect(plan?.run()).rejects.toMatchObject({ status: 409, code: "changed" });
      expect(fs.readFileSync(path.join(ws, STUCK), "utf8")).toBe(delivered);
      expect(fs.existsSync(path.join(ws, back))).toBe(false);
      fs.writeFileSync(path.join(ws, STUCK), delivered.replace("X-IGNITE-Status: delivered", "X-IGNITE-Status: processing"));
    }
  });

  it("requeues a dead letter's original to the queue the journal saw it fail in, archiving the letter", async () => {
    const plan = await ignite?.fileActions?.plan("requeue", on(DL_TASK, { folder: "dead_letter", status: "dead", agent: "dead_letter", heldAgent: "coordinator" }), {});
    expect(plan?.path).toBe(".ignite/queue/coordinator/task_assignment_1795135151004518.mime");
    expect(plan?.archived).toBe(".ignite/archive/mailroom/queue/dead_letter/task_assignment_1795135151004518_dlq_1795136385.mime");
    expect(fs.existsSync(path.join(ws, plan?.path ?? "x"))).toBe(false);
    expect(await plan?.run()).toBe(`(dead letter archived to ${plan?.archived})`);
    expect(fs.existsSync(path.join(ws, plan?.archived ?? "x"))).toBe(true);
  });

  it("discards to Mailroom's archive and restores from it; says where a file came from", async () => {
    const actions = ignite?.fileActions;
    const archived = ".ignite/archive/mailroom/queue/leader/progress_update_1795136392801166.mime";
    expect(actions?.archivePathOf(QUEUED)).toBe(archived);
    expect(actions?.unarchivePathOf(archived)).toBe(QUEUED);
    expect(actions?.archivePathOf(archived)).toBeNull();
    expect(actions?.unarchivePathOf(QUEUED)).toBeNull();
    const discard = await actions?.plan("discard", on(QUEUED, { folder: "queue", status: "queued", agent: "leader", heldAgent: null }), {});
    expect(discard?.path).toBe(archived);
    await discard?.run();
    const restore = await actions?.plan("restore", on(archived, { folder: "archive", status: "queued", agent: "leader", heldAgent: null }), {});
    expect(restore?.path).toBe(QUEUED);
    await expect(actions?.plan("mark-read", on(QUEUED, { folder: "queue", status: "queued", agent: "leader", heldAgent: null }), {})).rejects.toMatchObject({ status: 409 });
  });
});
