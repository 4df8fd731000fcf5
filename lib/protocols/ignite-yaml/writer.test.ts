import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { afterEach, describe, expect, it } from "vitest";
import { fixturePath } from "@/lib/testing/fixtures";
import { scalar } from "./lifecycle";
import { read } from "./read";
import { messageName, planCompose, planDiscard, planReply, planRequeue, planRetry, run } from "./writer";

const dirs: string[] = [];
function workspace(): string {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-ignite-yaml-w-"));
  fs.cpSync(fixturePath("ignite-yaml", "workspace"), ws, { recursive: true });
  dirs.push(ws);
  return ws;
}
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const text = (ws: string, rel: string) => fs.readFileSync(path.join(ws, rel), "utf8");
const exists = (ws: string, rel: string) => fs.existsSync(path.join(ws, rel));
const entry = (ws: string, rel: string) => read(rel, fs.readFileSync(path.join(ws, rel))).entries[0];

const DL = "queue/dead_letter/task_assignment_1770261903611907_dlq_1770263140.yaml";
const DL_ARCHIVED = `archive/mailroom/${DL}`;
const PROCESSED = "queue/leader/processed/strategy_response_1770261852700100.yaml";
const RETRYING = "queue/ignitian_3/task_assignment_1770262835003318.yaml";

describe("IGNITE v2 compose and reply", () => {
  it("writes {type}_{16 digits}.yaml with the v2 keys in order, mode 0600, read back as sent", async () => {
    const ws = workspace();
    const now = new Date();
    const plan = await planCompose(ws, { from: "leader", to: "strategist", type: "strategy_request", priority: "high", payload: "goal: \"READMEを直す\"\nsteps:\n  - a\n  - b\n" }, now);
    expect(plan.path).toMatch(new RegExp(`^queue/strategist/strategy_request_${now.getTime()}\\d{3}\\.yaml$`));
    await run(ws, plan);
    const body = text(ws, plan.path);
    expect(body).toBe(plan.bytes);
    expect(Object.keys(parse(body) as object)).toEqual(["type", "from", "to", "timestamp", "priority", "payload"]);
    expect(body).toMatch(/^type: strategy_request\nfrom: leader\nto: strategist\ntimestamp: "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d"\npriority: high\npayload:\n  goal: "READMEを直す"\n  steps:\n    - a\n/);
    expect(fs.statSync(path.join(ws, plan.path)).mode & 0o777).toBe(0o600);
    expect(entry(ws, plan.path)).toMatchObject({ from: "leader", to: ["strategist"], type: "strategy_request", priority: "high", status: "queued", problems: [] });
    await expect(run(ws, plan)).rejects.toMatchObject({ status: 409, code: "target_exists" });
  });

  it("names messages of one type written in one millisecond apart: their stem is their id", async () => {
    const now = new Date("2026-11-26T09:00:00.123Z");
    const names = Array.from({ length: 2000 }, () => messageName("task_assignment", now));
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^task_assignment_\d{16}\.yaml$/);
    // Never before the time written (a millisecond holds a thousand stamps; the rest go on into the next ones).
    for (const name of names) expect(Math.floor(Number(/_(\d{16})\./.exec(name)?.[1]) / 1000)).toBeGreaterThanOrEqual(now.getTime());
    expect(names[0]).toContain(`_${now.getTime()}`);
    // Two compositions in one millisecond: two files, where the second was refused as "already exists" one time in a thousand.
    const ws = workspace();
    const compose = () => planCompose(ws, { from: "leader", to: "strategist", type: "strategy_request", payload: "" }, now).then((p) => run(ws, p));
    const written = await Promise.all(Array.from({ length: 50 }, compose));
    expect(new Set(written.map((w) => w.path)).size).toBe(50);
  });

  it("replies to the original's sender, carrying its task_id", async () => {
    const ws = workspace();
    const plan = await planReply(ws, { path: RETRYING, type: "task_completed", payload: "summary: done" });
    await run(ws, plan);
    expect(parse(text(ws, plan.path))).toMatchObject({ from: "ignitian_3", to: "coordinator", payload: { task_id: "task_003", summary: "done" } });
  });

  it("replies to an original whose task_id is 200,000 `[`, quoting it on the bounded path (it ran `yaml` out of memory)", async () => {
    const ws = workspace();
    const hostile = "[".repeat(200_000);
    fs.writeFileSync(path.join(ws, "queue/leader/hostile_1770262835003318.yaml"), `type: task\nfrom: coordinator\nto: leader\npayload:\n  task_id: "${hostile}"\n`);
    const plan = await planReply(ws, { path: "queue/leader/hostile_1770262835003318.yaml", type: "task_completed", payload: "summary: done" });
    expect(plan.bytes).toContain(`task_id: "${hostile}"\n`);
    // Read back by `yaml`, 100,000 then 200,000 brackets overflowed its stack and then crashed the process (out of memory).
    for (const n of [100_000, 200_000]) expect(scalar("[".repeat(n))).toBe(`"${"[".repeat(n)}"`);
  });

  it("refuses bad fields, payloads that are not YAML mappings, and unknown queues, naming the field", async () => {
    const ws = workspace();
    await expect(planCompose(ws, { from: "leader", to: "strategist", type: "a/b" })).rejects.toThrow(/type: .*must not contain/);
    await expect(planCompose(ws, { from: "leader", to: "strategist", type: "x", payload: "a: [1" })).rejects.toThrow(/payload: .*not valid YAML/);
    await expect(planCompose(ws, { from: "leader", to: "strategist", type: "x", payload: "- 1" })).rejects.toThrow(/payload: must be a YAML mapping/);
    await expect(planCompose(ws, { from: "leader", to: "nobody", type: "x" })).rejects.toThrow(/to: there is no queue\/nobody/);
    fs.symlinkSync(path.join(ws, "queue", "leader"), path.join(ws, "queue", "linked"));
    await expect(planCompose(ws, { from: "leader", to: "linked", type: "x" })).rejects.toThrow(/^to: queue\/linked is a link; Mailroom never writes through links$/);
    await expect(planCompose(ws, { from: "leader", to: "strategist", type: "x", priority: "urgent" })).rejects.toThrow(/priority: must be high/);
  });
});

describe("IGNITE v2 lifecycle", () => {
  it("requeues a dead letter's original (lifecycle keys gone, requeued_* appended) and archives the dead letter", async () => {
    const ws = workspace();
    await expect(planRequeue(ws, { path: DL })).rejects.toThrow(/to: there is no queue\/ignitian_2\//);
    fs.mkdirSync(path.join(ws, "queue/ignitian_2"));
    const before = text(ws, DL);
    const again = await planRequeue(ws, { path: DL });
    expect(again.path).toBe("queue/ignitian_2/task_assignment_1770261903611907.yaml");
    await run(ws, again);
    const body = text(ws, again.path);
    expect(body).not.toMatch(/^(status|processed_at|retry_count|last_retry_at|next_retry_after):/m);
    expect(body).toMatch(/\nrequeued_at: "[^"]+"\nrequeued_from: "queue\/dead_letter\/task_assignment_1770261903611907_dlq_1770263140.yaml"\n$/);
    expect(entry(ws, again.path)).toMatchObject({ status: "queued", type: "task_assignment", problems: [] });
    expect(exists(ws, DL)).toBe(false);
    // Archived as requeued, not discarded: the letter is marked with where its original went, and
    // restoring it (the page's Undo) puts back the bytes the monitor wrote.
    const letter = text(ws, DL_ARCHIVED);
    expect(letter).toBe(`${before}requeued_to: "queue/ignitian_2/task_assignment_1770261903611907.yaml"\n`);
    expect(entry(ws, DL_ARCHIVED)).toMatchObject({ status: "requeued", folder: "archive" });
    // Not back while its requeued message waits in its queue: it would be both queued and dead.
    await expect(planDiscard(ws, { path: DL_ARCHIVED }, true)).rejects.toMatchObject({ status: 409, message: expect.stringContaining("its message is still at queue/ignitian_2/") });
    // Nor once the monitor handed it to its agent (processed/ beside it).
    const processed = again.path.replace("ignitian_2/", "ignitian_2/processed/");
    fs.mkdirSync(path.dirname(path.join(ws, processed)), { recursive: true });
    fs.renameSync(path.join(ws, again.path), path.join(ws, processed));
    await expect(planDiscard(ws, { path: DL_ARCHIVED }, true)).rejects.toMatchObject({ status: 409, message: expect.stringContaining(`still at ${processed}`) });
    fs.rmSync(path.join(ws, processed));
    await run(ws, await planDiscard(ws, { path: DL_ARCHIVED }, true));
    expect(text(ws, DL)).toBe(before);
    expect(entry(ws, DL)).toMatchObject({ status: "dead" });
    // The requeued copy, discarded, is not restored while its letter is dead again: it would be queued and dead at once.
    fs.writeFileSync(path.join(ws, processed), "type: task_assignment\n");
    await run(ws, await planDiscard(ws, { path: processed }));
    await expect(planDiscard(ws, { path: `archive/mailroom/${processed}` }, true)).rejects.toMatchObject({
      status: 409, message: expect.stringContaining(`is held by the dead letter ${DL}`),
    });
  });

  it("does not requeue a dead letter again once its agent took the copy a requeue that stopped half-way wrote", async () => {
    const ws = workspace();
    fs.mkdirSync(path.join(ws, "queue/ignitian_2/processed"), { recursive: true });
    // What a crash between a requeue's two steps leaves: the copy written (and taken by the monitor), the letter still dead.
    const copy = "queue/ignitian_2/processed/task_assignment_1770261903611907.yaml";
    fs.writeFileSync(path.join(ws, copy), "type: task_assignment\n");
    await expect(planRequeue(ws, { path: DL })).rejects.toMatchObject({ status: 409, code: "already_requeued", message: expect.stringContaining(`${copy} already holds the message ${DL} holds`) });
    expect(exists(ws, "queue/ignitian_2/task_assignment_1770261903611907.yaml")).toBe(false);
    await run(ws, await planDiscard(ws, { path: DL }));
    expect(exists(ws, DL_ARCHIVED)).toBe(true);
  });

  it("requeues under a name the monitor reads, whatever original_file the dead letter says", async () => {
    const ws = workspace();
    fs.mkdirSync(path.join(ws, "queue/ignitian_2"));
    const letter = text(ws, DL);
    const withOriginal = (name: string) => letter.replace(/^original_file: .*$/m, `original_file: ${JSON.stringify(name)}`);
    const cases: Array<[string, RegExp]> = [
      ["unknown", /^queue\/ignitian_2\/task_assignment_1770261903611907\.yaml$/],
      [".hidden.yaml", /^queue\/ignitian_2\/task_assignment_1770261903611907\.yaml$/],
      ["../../task_1770261903611907.mime", /^queue\/ignitian_2\/task_assignment_1770261903611907\.yaml$/],
      ["dir/task_assignment_9.yaml", /^queue\/ignitian_2\/task_assignment_9\.yaml$/],
    ];
    for (const [original, target] of cases) {
      fs.writeFileSync(path.join(ws, DL), withOriginal(original));
      expect((await planRequeue(ws, { path: DL })).path, original).toMatch(target);
    }
    // A dead letter whose own name says nothing either: a new name of the original's type.
    const odd = "queue/dead_letter/odd.yaml";
    fs.writeFileSync(path.join(ws, odd), withOriginal("unknown"));
    expect((await planRequeue(ws, { path: odd })).path).toMatch(/^queue\/ignitian_2\/task_assignment_\d{16}\.yaml$/);
  });

  it("requeues a processed message, edited, to another queue", async () => {
    const ws = workspace();
    const plan = await planRequeue(ws, { path: PROCESSED, to: "coordinator", body: "type: strategy_response\nfrom: strategist\nto: coordinator\npayload:\n  goal: x\n" });
    await run(ws, plan);
    expect(plan.path).toBe("queue/coordinator/strategy_response_1770261852700100.yaml");
    expect(parse(text(ws, plan.path))).toMatchObject({ to: "coordinator", payload: { goal: "x" }, requeued_from: PROCESSED });
    expect(exists(ws, PROCESSED)).toBe(false);
    await expect(planRequeue(ws, { path: RETRYING })).rejects.toMatchObject({ status: 409, code: "not_applicable" });
    await expect(planRequeue(ws, { path: DL, body: "a: [" })).rejects.toThrow(/body: .*not valid YAML/);
  });

  it("retries now as the monitor does: retry_count n+1, times appended, status lines → retrying, back to the queue", async () => {
    const ws = workspace();
    const src = "queue/ignitian_3/processed/task_assignment_1770262835003318.yaml";
    fs.mkdirSync(path.join(ws, "queue/ignitian_3/processed"));
    fs.renameSync(path.join(ws, RETRYING), path.join(ws, src));
    fs.chmodSync(path.join(ws, src), 0o644);
    const plan = await planRetry(ws, { path: src });
    await run(ws, plan);
    const body = text(ws, RETRYING);
    // The same file moved back, as the monitor's mv leaves it: its mode too.
    expect(fs.statSync(path.join(ws, RETRYING)).mode & 0o777).toBe(0o644);
    expect(body.match(/^retry_count: 2$/gm)).toHaveLength(1);
    expect(body).toMatch(/^status: retrying$/m);
    expect(body).toMatch(/\nretry_count: 2\nlast_retry_at: "[^"]+"\nnext_retry_after: "[^"]+"\n$/);
    expect(entry(ws, RETRYING)).toMatchObject({ status: "retrying", retryCount: 2, problems: [] });
  });

  it("discards to archive/mailroom and restores; a file changed since planning is a 409", async () => {
    const ws = workspace();
    const before = text(ws, PROCESSED);
    await run(ws, await planDiscard(ws, { path: PROCESSED }));
    expect(text(ws, `archive/mailroom/${PROCESSED}`)).toBe(before);
    await run(ws, await planDiscard(ws, { path: `archive/mailroom/${PROCESSED}` }, true));
    expect(text(ws, PROCESSED)).toBe(before);
    const plan = await planDiscard(ws, { path: PROCESSED });
    fs.appendFileSync(path.join(ws, PROCESSED), "status: processing\n");
    await expect(run(ws, plan)).rejects.toMatchObject({ status: 409, code: "changed" });
    const size = fs.statSync(path.join(ws, PROCESSED)).size;
    await expect(run(ws, await planDiscard(ws, { path: PROCESSED, expect: { size: size - 1 } }))).rejects.toMatchObject({ status: 409 });
    expect(exists(ws, PROCESSED)).toBe(true);
  });

  it("discards and restores a message cut mid-character byte for byte; rewriting it is a 409 that says why", async () => {
    const ws = workspace();
    // What a writer killed mid-write leaves: the first byte of a three-byte character, then nothing.
    const cut = Buffer.concat([fs.readFileSync(path.join(ws, PROCESSED)), Buffer.from("notes: \"", "utf8"), Buffer.from([0xe6])]);
    fs.writeFileSync(path.join(ws, PROCESSED), cut);
    await expect(planRetry(ws, { path: PROCESSED })).rejects.toMatchObject({ status: 409, code: "not_utf8", message: expect.stringContaining("is not valid UTF-8") });
    await run(ws, await planDiscard(ws, { path: PROCESSED }));
    expect(fs.readFileSync(path.join(ws, `archive/mailroom/${PROCESSED}`)).equals(cut)).toBe(true);
    await run(ws, await planDiscard(ws, { path: `archive/mailroom/${PROCESSED}` }, true));
    expect(fs.readFileSync(path.join(ws, PROCESSED)).equals(cut)).toBe(true);
  });
});
