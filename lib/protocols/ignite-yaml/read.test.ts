import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { fixturePath } from "@/lib/testing/fixtures";
import type { Entry } from "@/lib/protocols/entries";
import { placeIgniteYaml } from "./paths";
import { markedRequeued } from "./lifecycle";
import { read } from "./read";
import { resolve } from "./statuses";

const WS = fixturePath("ignite-yaml", "workspace");
function entryOf(relPath: string, opts = {}): Entry {
  const bytes = fs.readFileSync(`${WS}/${relPath}`);
  const r = read(relPath, bytes, opts);
  expect(r.entries).toHaveLength(1);
  expect(r.consumed).toBe(bytes.length);
  return r.entries[0]!;
}

const DLQ = "queue/dead_letter/task_assignment_1770261903611907_dlq_1770263140.yaml";

describe("IGNITE v2 paths", () => {
  it("places queue, processed, dead-letter and archive files, and nothing else", () => {
    expect(placeIgniteYaml("queue/leader/progress_update_1770263142077120.yaml")).toEqual({ agent: "leader", folder: "queue", role: "inbox" });
    expect(placeIgniteYaml("queue/leader/processed/user_goal_1770261601512044.yaml")).toEqual({ agent: "leader", folder: "processed", role: "inbox" });
    expect(placeIgniteYaml(DLQ)).toEqual({ agent: "dead_letter", folder: "dead_letter", role: "inbox" });
    expect(placeIgniteYaml("archive/mailroom/queue/leader/x_1770263142077120.yaml")).toEqual({ agent: "leader", folder: "archive", role: "archive" });
    for (const p of ["queue/leader/.x.yaml", "queue/leader/x.yaml.tmp1", "queue/leader/x.yaml.lock", "queue/leader/x.mime", "queue/dead_letter/processed/x.yaml", "queue/leader/processed/deep/x.yaml", "queue/x.yaml", "queue/../etc/x.yaml"]) {
      expect(placeIgniteYaml(p), p).toBeNull();
    }
  });
});

describe("IGNITE v2 read on the fixture", () => {
  it("reads a delivered message: fields from the YAML, status from the folder", () => {
    const e = entryOf("queue/leader/processed/user_goal_1770261601512044.yaml");
    expect(e).toMatchObject({
      kind: "message", locator: "", span: null, messageId: "user_goal_1770261601512044", from: "user", to: ["leader"],
      type: "user_goal", priority: "high", date: "2026-02-05T03:20:01.000Z", agent: "leader", folder: "processed",
      status: "delivered", rawStatus: "delivered", retryCount: 0, dueAt: null, links: [], problems: [],
    });
    expect(e.data).toMatchObject({ payload: { context: "初回ユーザー向け。Issue #12" } });
  });

  it("reads duplicate lifecycle keys leniently: the last status and processed_at win, nothing is dropped", () => {
    const e = entryOf("queue/evaluator/processed/evaluation_request_1770262765402266.yaml");
    expect(e).toMatchObject({ status: "processing", rawStatus: "processing", retryCount: 1, problems: [] });
    expect(e.dueAt).toBe("2026-02-05T03:49:40.000Z"); // last processed_at 12:44:40 +09:00, plus 300 s
    expect(read("q", Buffer.from("")).problems[0]?.code).toBe("path");
  });

  it("times a processed file without status or processed_at from its mtime, as the monitor does", () => {
    const bytes = Buffer.from('type: plan\nfrom: leader\nto: coordinator\ntimestamp: "2026-02-05T12:00:00+09:00"\npayload: {}\n');
    const e = read("queue/coordinator/processed/plan_1770260400000000.yaml", bytes, { mtimeMs: Date.parse("2026-02-05T03:01:00Z") }).entries[0]!;
    expect(e).toMatchObject({ status: "processing", rawStatus: null, dueAt: "2026-02-05T03:06:00.000Z" });
  });

  it("reads a message back in its queue with status retrying and retry_count 1", () => {
    const e = entryOf("queue/ignitian_3/task_assignment_1770262835003318.yaml");
    expect(e).toMatchObject({ agent: "ignitian_3", folder: "queue", status: "retrying", rawStatus: "retrying", retryCount: 1, dueAt: null });
  });

  it("reads the pending messages as queued, the escalation included (status queued, priority critical)", () => {
    expect(entryOf("queue/leader/progress_update_1770263142077120.yaml")).toMatchObject({ status: "queued", rawStatus: null, from: "coordinator" });
    expect(entryOf("queue/innovator/improvement_request_1770263144310556.yaml")).toMatchObject({ status: "queued", priority: "low" });
    const esc = entryOf("queue/leader/escalation_1770263140.yaml");
    expect(esc).toMatchObject({ type: "escalation", from: "queue_monitor", priority: "critical", status: "queued", rawStatus: "queued" });
    expect(esc.data).toMatchObject({ payload: { task_id: "unknown", original_assignee: "unknown" } });
  });

  it("reads the dead letter: status dead, a holds link to its original, the original's text parsed", () => {
    const e = entryOf(DLQ);
    expect(e).toMatchObject({
      type: "dead_letter", status: "dead", agent: "dead_letter", folder: "dead_letter", retryCount: 3,
      from: "coordinator", to: ["ignitian_2"], priority: "high", date: "2026-02-05T03:45:40.000Z", problems: [],
    });
    expect(e.links).toEqual([{
      kind: "holds", targetId: "task_assignment_1770261903611907",
      detail: { originalFile: "task_assignment_1770261903611907.yaml", originalAgent: "ignitian_2", retryCount: 3, lastError: "timeout after 3 retries", movedAt: "2026-02-05T03:45:40.000Z" },
    }]);
    // The original's duplicate keys: the last status wins.
    expect(e.data).toMatchObject({ original_message: { type: "task_assignment", status: "processing", retry_count: 3, payload: { task_id: "task_002" } } });
  });

  it("reads a dead letter archived by a requeue as requeued, and it no longer holds its original once that is gone", () => {
    const bytes = Buffer.from(markedRequeued(fs.readFileSync(`${WS}/${DLQ}`, "utf8"), "queue/ignitian_2/task_assignment_1770261903611907.yaml"));
    const letter = read(`archive/mailroom/${DLQ}`, bytes).entries[0]!;
    expect(letter).toMatchObject({ status: "requeued", folder: "archive" });
    const discardedLetter = read(`archive/mailroom/${DLQ}`, fs.readFileSync(`${WS}/${DLQ}`)).entries[0]!;
    expect(discardedLetter).toMatchObject({ status: "discarded", folder: "archive" });
    // The requeued copy, handled and deleted by its agent: completed, where a discarded letter keeps it discarded.
    const original = { ...entryOf("queue/leader/processed/user_goal_1770261601512044.yaml"), messageId: "task_assignment_1770261903611907", gone: true };
    expect(resolve([letter, original])[1]).toMatchObject({ status: "completed" });
    expect(resolve([discardedLetter, original])[1]).toMatchObject({ status: "discarded" });
  });

  it("reads every fixture file with no problem, each with the status its folder gives", () => {
    const statuses: Record<string, string> = {};
    const walk = (dir: string): string[] => fs.readdirSync(`${WS}/${dir}`, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? walk(`${dir}/${d.name}`) : [`${dir}/${d.name}`]));
    for (const p of walk("queue")) {
      const e = entryOf(p);
      expect(e.problems, p).toEqual([]);
      statuses[e.status] = String(Number(statuses[e.status] ?? 0) + 1);
    }
    expect(statuses).toEqual({ delivered: "6", processing: "1", retrying: "1", queued: "3", dead: "1" });
  });
});

describe("IGNITE v2 read on broken files", () => {
  it("lists YAML that does not parse with a problem and the fields it could recover", () => {
    const text = 'type: task_completed\nfrom: ignitian_1\nto: coordinator\ntimestamp: "$(date -Iseconds)"\npayload:\n  notes: "C:\\path\\x"\n  bad: [unclosed\nstatus: delivered\nretry_count: 2\n';
    const e = read("queue/coordinator/processed/task_completed_1770262720090321.yaml", Buffer.from(text)).entries[0]!;
    expect(e).toMatchObject({ type: "task_completed", from: "ignitian_1", to: ["coordinator"], status: "delivered", date: null, retryCount: 2 });
    expect(e.data).toMatchObject({ payload: null, status: "delivered" });
    expect(e.problems.map((p) => p.code)).toEqual(["parse", "date"]);
    expect(e.problems[0]?.message).toMatch(/^The file is not valid YAML \(line \d+, column \d+\)/);
    expect(e.problems[1]?.message).toBe('The timestamp "$(date -Iseconds)" is not an ISO 8601 time.');
  });

  it("lists a body cut in the middle of a UTF-8 character with an encoding problem", () => {
    const bytes = Buffer.from('type: progress_update\nfrom: coordinator\nto: leader\npayload:\n  summary: "完了"\n').subarray(0, -3);
    const e = read("queue/leader/progress_update_1770263142077121.yaml", bytes).entries[0]!;
    expect(e.problems.map((p) => p.code)).toContain("encoding");
    expect(e).toMatchObject({ type: "progress_update", from: "coordinator", status: "queued" });
  });

  it("lists an empty file and refuses hostile YAML (alias bomb, deep nesting) as limits, quickly", () => {
    expect(read("queue/leader/x.yaml", Buffer.alloc(0)).entries[0]?.problems.map((p) => p.code)).toEqual(["empty"]);
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 0; i < 9; i++) bomb.push(`${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9).fill(`*${String.fromCharCode(97 + i)}`).join(",")}]`);
    const started = Date.now();
    expect(read("queue/leader/bomb.yaml", Buffer.from(`type: x\n${bomb.join("\n")}\n`)).entries[0]?.problems.map((p) => p.code)).toEqual(["limit"]);
    expect(read("queue/leader/deep.yaml", Buffer.from(`type: x\na: ${"[".repeat(100_000)}${"]".repeat(100_000)}\n`)).entries[0]?.problems.map((p) => p.code)).toEqual(["limit"]);
    const block = Array.from({ length: 200 }, (_, i) => `${" ".repeat(i)}k:`).join("\n");
    expect(read("queue/leader/block.yaml", Buffer.from(block)).entries[0]?.problems.map((p) => p.code)).toEqual(["limit"]);
    expect(read("queue/leader/big.yaml", Buffer.from(`type: big\nfrom: a\npad: "${"x".repeat(2 * 1024 * 1024)}"\n`)).entries[0]).toMatchObject({ type: "big", from: "a", problems: [{ code: "limit" }] });
    expect(Date.now() - started).toBeLessThan(10_000); // generous: a loaded 2-core machine
  });
});
