import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { queryHistory, querySummary } from "@/lib/journal/queries";
import { queryStats } from "@/lib/journal/stats";
import { loadConfig } from "@/lib/server/config";
import { IngestService } from "./service";
import { data, journal, mime, q, queue, service, setUpIngestFixture, until, ws } from "./ingest-fixture";

setUpIngestFixture();

describe("first scan of the fixture", () => {
  it("journals every message file, malformed ones included", () => {
    const all = q("");
    // 19 files, plus the two dead letters' originals known only from inside them.
    expect(all).toHaveLength(21);
    expect(q("status:invalid").map((m) => m.path)).toEqual(
      expect.arrayContaining([".ignite/queue/architect/broken_1795300000000001.mime", ".ignite/queue/architect/processed/empty_1795300000000002.mime"]),
    );
  });

  it("reads each lifecycle state", () => {
    expect(q("agent:ignitian_3")[0]).toMatchObject({ status: "retrying", retryCount: 1 });
    expect(q("agent:evaluator")[0]).toMatchObject({ status: "processing", stuck: true });
    expect(q("is:stuck")).toHaveLength(1);
    expect(q("folder:queue status:queued").map((m) => m.type).sort()).toEqual(["escalation", "evaluation_result", "improvement_request", "progress_update"]);
  });

  it("links each dead letter to its original, which is dead", () => {
    const letters = q("folder:dead_letter");
    expect(letters).toHaveLength(2);
    for (const letter of letters) {
      const original = querySummary(journal.db, letter.deadLetterOf ?? "");
      expect(original).toMatchObject({ status: "dead", path: null });
    }
    expect(q("agent:ignitian_2 status:dead")[0]).toMatchObject({ type: "task_assignment", threadId: "thr_readme_42" });
  });

  it("lists every agent, empty queues too, with per-status counts", () => {
    const stats = queryStats(journal.db);
    const byAgent = Object.fromEntries(stats.agents.map((a) => [a.agent, a]));
    expect(Object.keys(byAgent).sort()).toEqual(
      ["architect", "coordinator", "evaluator", "ignitian_1", "ignitian_2", "ignitian_3", "innovator", "leader", "strategist"],
    );
    expect(byAgent.leader).toMatchObject({ queued: 3, delivered: 4 });
    expect(byAgent.evaluator).toMatchObject({ processing: 1, stuck: 1 });
    expect(byAgent.ignitian_2).toMatchObject({ dead: 1 });
  });
});

describe("watching the tree", () => {
  it("journals a new file, keeps its key through processed/ and a rewrite, and completes it when deleted", async () => {
    fs.writeFileSync(queue("ignitian_1", "task_assignment_1.mime"), mime("n1", "ignitian_1"));
    const created = await until(() => q("mid:n1@ignite.local")[0]);
    expect(created).toMatchObject({ status: "queued", folder: "queue" });

    fs.renameSync(queue("ignitian_1", "task_assignment_1.mime"), queue("ignitian_1", "processed", "task_assignment_1.mime"));
    await until(() => querySummary(journal.db, created.key)?.folder === "processed");

    const processed = queue("ignitian_1", "processed", "task_assignment_1.mime");
    fs.writeFileSync(processed, mime("n1", "ignitian_1", "X-IGNITE-Status: delivered\n"));
    await until(() => querySummary(journal.db, created.key)?.status === "delivered");

    fs.unlinkSync(processed);
    const done = await until(() => (querySummary(journal.db, created.key)?.status === "completed" ? querySummary(journal.db, created.key) : null));
    expect(done).toMatchObject({ path: null, preview: 'task_id: "t_n1"' });
    expect(queryHistory(journal.db, created.key).map((e) => e.kind)).toEqual(["seen", "moved", "status", "gone"]);
  });

  it("keeps a gone message without a Message-ID for itself: a new file of another name is a new message", async () => {
    const noId = (task: string) => mime("x", "leader").replace("Message-ID: <x@ignite.local>\n", "").replace('"t_x"', `"${task}"`);
    fs.writeFileSync(queue("leader", "notify_1.mime"), noId("first"));
    const first = await until(() => q("agent:leader first")[0]);
    fs.renameSync(queue("leader", "notify_1.mime"), queue("leader", "processed", "notify_1.mime"));
    // Moved under the same name, it is still the same message.
    await until(() => querySummary(journal.db, first.key)?.folder === "processed");
    fs.unlinkSync(queue("leader", "processed", "notify_1.mime"));
    await until(() => querySummary(journal.db, first.key)?.status === "completed");

    fs.writeFileSync(queue("leader", "report_9.mime"), noId("second"));
    const second = await until(() => q("agent:leader second")[0]);
    expect(second.key).not.toBe(first.key);
    expect(querySummary(journal.db, first.key)).toMatchObject({ status: "completed", path: null, preview: 'task_id: "first"' });
  });

  it("follows the monitor's rename of a 10-digit escalation without a new key", async () => {
    const before = q("agent:leader type:escalation folder:queue")[0];
    expect(before).toBeDefined();
    fs.renameSync(queue("leader", "escalation_1795136385.mime"), queue("leader", "escalation_1795136385000000.mime"));
    const after = await until(() => q("path:escalation_1795136385000000")[0]);
    expect(after.key).toBe(before?.key);
  });

  it("reads a v2 (YAML) message in a v3 queue as the v2 message it is, and the .mime it is converted into continues it", async () => {
    const v2 = "type: task_assignment\nfrom: leader\nto: coordinator\npriority: high\ntimestamp: '2026-11-20T10:00:00+09:00'\npayload:\n  task_id: t_v2\n";
    fs.writeFileSync(queue("coordinator", "task_assignment_1795500000000001.yaml"), v2);
    const before = await until(() => q("path:task_assignment_1795500000000001.yaml")[0]);
    expect(before).toMatchObject({ protocol: "ignite", status: "queued", from: "leader", to: ["coordinator"], type: "task_assignment" });
    // The monitor's conversion: the .mime of the same name, then the .yaml removed.
    fs.writeFileSync(queue("coordinator", "task_assignment_1795500000000001.mime"), mime("converted_v2", "coordinator"));
    fs.unlinkSync(queue("coordinator", "task_assignment_1795500000000001.yaml"));
    const after = await until(() => q("path:task_assignment_1795500000000001.mime")[0]);
    expect(after.key).toBe(before.key);
    await until(() => !q("path:task_assignment_1795500000000001.yaml").some((m) => m.path !== null) && q("mid:*converted_v2*").length === 1);
    expect(queryHistory(journal.db, after.key).map((e) => e.kind)).toContain("converted");
  });

  it("watches a new agent's folders as they appear, reading only those folders", async () => {
    const readdir = vi.spyOn(fs, "readdirSync");
    try {
      fs.mkdirSync(queue("ignitian_9"));
      await until(() => readdir.mock.calls.some(([d]) => d === queue("ignitian_9")));
      fs.mkdirSync(queue("ignitian_9", "processed"));
      await until(() => readdir.mock.calls.some(([d]) => d === queue("ignitian_9", "processed")));
      fs.writeFileSync(queue("ignitian_9", "processed", "task_assignment_9.mime"), mime("n9", "ignitian_9"));
      expect(await until(() => q("mid:n9@ignite.local")[0])).toMatchObject({ agent: "ignitian_9", folder: "processed" });
      // Not the whole tree again: the other agents' folders are watched already.
      expect(readdir.mock.calls.map(([d]) => String(d)).filter((d) => !d.startsWith(queue("ignitian_9")))).toEqual([]);
    } finally {
      readdir.mockRestore();
    }
  });

  it("watches a folder made again under the name of one renamed away, and no deeper than a scan watches", async () => {
    const readdir = vi.spyOn(fs, "readdirSync");
    try {
      fs.mkdirSync(queue("ignitian_8"));
      await until(() => readdir.mock.calls.some(([d]) => d === queue("ignitian_8")));
      // Its watch follows it to the new name; the old name must not count as watched any more.
      fs.renameSync(queue("ignitian_8"), queue("ignitian_88"));
      await until(() => readdir.mock.calls.some(([d]) => d === queue("ignitian_88")));
      readdir.mockClear();
      fs.mkdirSync(queue("ignitian_8", "a", "b", "c", "d", "e"), { recursive: true });
      await until(() => readdir.mock.calls.some(([d]) => d === queue("ignitian_8")));
      fs.writeFileSync(queue("ignitian_8", "task_assignment_80.mime"), mime("n80", "ignitian_8"));
      expect(await until(() => q("mid:n80@ignite.local")[0])).toMatchObject({ agent: "ignitian_8" });
      // queue/ignitian_8/a/b/c is 4 levels below queue/, as deep as new folders are watched (a
      // scan watches only the levels that can hold messages, 2 below queue/).
      expect(readdir.mock.calls.some(([d]) => String(d).startsWith(queue("ignitian_8", "a", "b", "c", "d")))).toBe(false);
    } finally {
      readdir.mockRestore();
    }
  });

  it("journals the files a folder brings when it is moved in whole", async () => {
    const made = fs.mkdtempSync(path.join(path.dirname(ws), "mailroom-agent-"));
    fs.mkdirSync(path.join(made, "processed"));
    fs.writeFileSync(path.join(made, "task_assignment_7.mime"), mime("n7", "ignitian_7"));
    fs.writeFileSync(path.join(made, "processed", "task_assignment_70.mime"), mime("n70", "ignitian_7"));
    // A folder where a message file should be: listed as an invalid message, as a scan lists it.
    fs.mkdirSync(path.join(made, "processed", "task_assignment_71.mime"));
    fs.renameSync(made, queue("ignitian_7"));
    expect(await until(() => q("mid:n7@ignite.local")[0])).toMatchObject({ agent: "ignitian_7", folder: "queue" });
    expect(await until(() => q("mid:n70@ignite.local")[0])).toMatchObject({ agent: "ignitian_7", folder: "processed" });
    const folderAsMessage = ".ignite/queue/ignitian_7/processed/task_assignment_71.mime";
    expect(await until(() => q(`path:${folderAsMessage}`)[0])).toMatchObject({ status: "invalid", problems: ["A directory is where a message file should be."] });
  });

  it("re-reads nothing for an event about a folder it watches already, and watches a folder made again at once", async () => {
    const readdir = vi.spyOn(fs, "readdirSync");
    try {
      fs.mkdirSync(queue("ignitian_6"));
      await until(() => readdir.mock.calls.some(([d]) => d === queue("ignitian_6")));
      readdir.mockClear();
      fs.chmodSync(queue("leader", "processed"), 0o750); // an event for processed/ itself, in leader/
      fs.rmSync(queue("ignitian_6"), { recursive: true });
      fs.mkdirSync(queue("ignitian_6")); // within one batch of events: the same name, another folder
      await until(() => readdir.mock.calls.some(([d]) => d === queue("ignitian_6")));
      fs.writeFileSync(queue("ignitian_6", "task_assignment_6.mime"), mime("n6", "ignitian_6"));
      expect(await until(() => q("mid:n6@ignite.local")[0])).toMatchObject({ agent: "ignitian_6" });
      expect(readdir.mock.calls.filter(([d]) => d === queue("leader", "processed"))).toEqual([]);
    } finally {
      readdir.mockRestore();
    }
  });

  it("journals a file that exists only briefly, and keeps it as completed once deleted", async () => {
    const file = queue("leader", "notify_1.mime");
    fs.writeFileSync(file, mime("brief", "leader"));
    // Deleted as soon as it is seen (a fixed second was not enough for the watcher on a busy machine).
    const m = await until(() => q("mid:brief@ignite.local")[0]);
    fs.unlinkSync(file);
    await until(() => querySummary(journal.db, m.key)?.status === "completed");
  });

  it("gives a requeued dead letter's message its original key back", async () => {
    const original = q("agent:ignitian_2 status:dead")[0];
    const text = fs.readFileSync(queue("dead_letter", "task_assignment_1795135151004518_dlq_1795136385.mime"), "utf8");
    const embedded = text.split("original_message: |\n")[1]?.replace(/^ {2}/gm, "") ?? "";
    fs.writeFileSync(queue("ignitian_2", "task_assignment_1795135151004518.mime"), embedded);
    const back = await until(() => q("agent:ignitian_2 folder:queue")[0]);
    expect(back.key).toBe(original?.key);
    expect(queryHistory(journal.db, back.key).at(-1)?.kind).toBe("requeued");
  });

  it("converges on a periodic rescan when events are missed", async () => {
    service.stop();
    fs.unlinkSync(queue("innovator", "improvement_request_1795136391230419.mime"));
    // A second service over the same journal stands in for the next rescan after missed events.
    const rescanner = new IngestService(loadConfig({ MAILROOM_ROOT: ws, MAILROOM_DATA: data }), journal);
    await rescanner.scanNow();
    rescanner.stop();
    expect(q("agent:innovator")[0]).toMatchObject({ status: "completed", path: null });
  });
});
