import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { fixturePath } from "@/lib/testing/fixtures";
import type { Entry } from "@/lib/protocols/entries";
import { isDashboard, placeShogun } from "./paths";
import { byteOffsets, read } from "./read";
import { resolve } from "./statuses";

const WS = fixturePath("shogun");
const JST = { utcOffsetMinutes: 540 };
function readFixture(relPath: string): Entry[] {
  const bytes = fs.readFileSync(`${WS}/${relPath}`);
  const r = read(relPath, bytes, JST);
  expect(r.problems).toEqual([]);
  expect(r.consumed).toBe(bytes.length);
  return r.entries;
}
const pick = (entries: Entry[], ...keys: Array<keyof Entry>) => entries.map((e) => Object.fromEntries(keys.map((k) => [k, e[k]])));

const FILES = [
  "queue/inbox/karo.yaml", "queue/inbox/ashigaru1.yaml", "queue/inbox/ashigaru2.yaml", "queue/inbox/gunshi.yaml", "queue/inbox/shogun.yaml",
  "queue/shogun_to_karo.yaml", "queue/tasks/ashigaru1.yaml", "queue/tasks/ashigaru2.yaml", "queue/tasks/gunshi.yaml",
  "queue/reports/ashigaru1_report.yaml", "queue/reports/ashigaru2_report.yaml", "queue/reports/gunshi_report.yaml",
  "queue/archive/inbox_karo_20260206100500.yaml", "queue/archive/shogun_to_karo_20260206100500.yaml",
];

describe("shogun paths", () => {
  it("places inboxes, commands, tasks, reports and archives; ignores locks, temp files, dotfiles and the dashboard", () => {
    expect(placeShogun("queue/inbox/karo.yaml")).toEqual({ agent: "karo", folder: "inbox", role: "inbox" });
    expect(placeShogun("queue/shogun_to_karo.yaml")).toEqual({ agent: "karo", folder: "queue", role: "command" });
    expect(placeShogun("queue/tasks/ashigaru1.yaml")).toEqual({ agent: "ashigaru1", folder: "tasks", role: "task" });
    expect(placeShogun("queue/reports/gunshi_report.yaml")).toEqual({ agent: "gunshi", folder: "reports", role: "report" });
    expect(placeShogun("queue/archive/inbox_karo_20260206100500.yaml")).toEqual({ agent: "karo", folder: "archive", role: "archive" });
    expect(placeShogun("queue/archive/shogun_to_karo_20260206100500.yaml")).toEqual({ agent: "karo", folder: "archive", role: "command" });
    for (const p of ["queue/inbox/karo.yaml.lock", "queue/inbox/karo.yaml.lock.d/x.yaml", "queue/inbox/tmpab12.tmp", "queue/inbox/karo.yaml.tmp.yaml", "queue/inbox/.karo.yaml", "dashboard.md", "queue/inbox/sub/karo.yaml", "queue/other/x.yaml"]) {
      expect(placeShogun(p), p).toBeNull();
    }
    expect(isDashboard("dashboard.md")).toBe(true);
    expect(isDashboard("queue/dashboard.md")).toBe(false);
  });
});

describe("shogun read on the fixture", () => {
  it("reads karo's inbox: 5 messages, 2 unread, located by id, each with its own bytes", () => {
    const bytes = fs.readFileSync(`${WS}/queue/inbox/karo.yaml`);
    const entries = readFixture("queue/inbox/karo.yaml");
    expect(pick(entries, "locator", "status", "rawStatus", "from", "type", "threadKey")).toEqual([
      { locator: "msg_20260206_101502_3fa1c2d9", status: "read", rawStatus: "true", from: "shogun", type: "cmd_new", threadKey: "cmd_048" },
      { locator: "msg_20260206_104155_1b7e90c4", status: "read", rawStatus: "true", from: "ashigaru1", type: "report_received", threadKey: null },
      { locator: "msg_20260206_104410_9b0e77a1", status: "read", rawStatus: "true", from: "gunshi", type: "report_received", threadKey: null },
      { locator: "msg_20260206_105231_c01d5e42", status: "unread", rawStatus: "false", from: "ashigaru2", type: "report_received", threadKey: null },
      { locator: "msg_20260206_105907_77aa0f13", status: "unread", rawStatus: "false", from: "shogun", type: "cmd_new", threadKey: "cmd_049" },
    ]);
    const first = entries[0]!;
    expect(first).toMatchObject({ kind: "message", messageId: first.locator, to: ["karo"], agent: "karo", folder: "inbox", date: "2026-02-06T01:15:02.000Z", body: "cmd_048を書いた。実行せよ。", problems: [] });
    // Its list item as it stands, from its `- `: YAML of its own (a list of one message).
    const own = bytes.toString("utf8", first.span!.start, first.span!.end);
    expect(own).toMatch(/^- content: cmd_048を書いた。実行せよ。\n[\s\S]*  type: cmd_new\n$/);
    expect(parseYaml(own)).toEqual([expect.objectContaining({ id: first.locator, content: "cmd_048を書いた。実行せよ。" })]);
    const last = entries[4]!;
    expect(bytes.toString("utf8", last.span!.start, last.span!.end)).toMatch(/^- content: cmd_049を書いた。[\s\S]*type: cmd_new\n$/);
  });

  it("reads the other inboxes: ashigaru1 3 (1 unread, multi-line quoted content), ashigaru2 2/1, gunshi 2/1, shogun empty", () => {
    const unread = (p: string) => readFixture(p).filter((e) => e.status === "unread").length;
    expect(readFixture("queue/inbox/ashigaru1.yaml")).toHaveLength(3);
    expect(unread("queue/inbox/ashigaru1.yaml")).toBe(1);
    expect(readFixture("queue/inbox/ashigaru1.yaml")[2]).toMatchObject({
      status: "unread", body: "やり直しタスク subtask_048a2 を読んで作業開始せよ。\n軍師の指摘: 'redirect一覧が不完全' を必ず直すこと。",
    });
    expect([readFixture("queue/inbox/ashigaru2.yaml").length, unread("queue/inbox/ashigaru2.yaml")]).toEqual([2, 1]);
    expect([readFixture("queue/inbox/gunshi.yaml").length, unread("queue/inbox/gunshi.yaml")]).toEqual([2, 1]);
    expect(readFixture("queue/inbox/shogun.yaml")).toEqual([]);
  });

  it("reads commands, tasks and reports as documents threaded by cmd_NNN", () => {
    expect(pick(readFixture("queue/shogun_to_karo.yaml"), "kind", "locator", "type", "status", "threadKey", "from", "to", "priority", "date")).toEqual([
      { kind: "document", locator: "cmd_048", type: "command", status: "in_progress", threadKey: "cmd_048", from: "shogun", to: ["karo"], priority: "high", date: "2026-02-06T01:15:00.000Z" },
      { kind: "document", locator: "cmd_049", type: "command", status: "pending", threadKey: "cmd_049", from: "shogun", to: ["karo"], priority: "medium", date: "2026-02-06T01:59:00.000Z" },
    ]);
    expect(readFixture("queue/shogun_to_karo.yaml")[1]?.span).not.toBeNull();
    // Karo hands out the tasks and reads the reports (upstream's file map); neither file says so.
    expect(pick(FILES.filter((f) => f.includes("/tasks/")).flatMap(readFixture), "locator", "agent", "from", "to", "status", "threadKey")).toEqual([
      { locator: "subtask_048a2", agent: "ashigaru1", from: "karo", to: ["ashigaru1"], status: "assigned", threadKey: "cmd_048" },
      { locator: "subtask_048c", agent: "ashigaru2", from: "karo", to: ["ashigaru2"], status: "blocked", threadKey: "cmd_048" },
      { locator: "", agent: "gunshi", from: "karo", to: ["gunshi"], status: "idle", threadKey: null },
    ]);
    // A report's task_id is its task's id, not its own: a link, so the two stay two messages.
    expect(pick(FILES.filter((f) => f.includes("/reports/")).flatMap(readFixture), "locator", "messageId", "from", "to", "status", "threadKey", "links")).toEqual([
      { locator: "subtask_048a", messageId: null, from: "ashigaru1", to: ["karo"], status: "done", threadKey: "cmd_048", links: [{ kind: "replies", targetId: "subtask_048a" }] },
      { locator: "subtask_048b", messageId: null, from: "ashigaru2", to: ["karo"], status: "done", threadKey: "cmd_048", links: [{ kind: "replies", targetId: "subtask_048b" }] },
      { locator: "subtask_048a", messageId: null, from: "gunshi", to: ["karo"], status: "failed", threadKey: "cmd_048", links: [{ kind: "replies", targetId: "subtask_048a" }] },
    ]);
  });

  it("reads the archives with the same locators as the inbox and commands they came from", () => {
    expect(pick(readFixture("queue/archive/inbox_karo_20260206100500.yaml"), "locator", "agent", "folder", "status", "threadKey")).toEqual([
      { locator: "msg_20260206_090102_1a2b3c4d", agent: "karo", folder: "archive", status: "read", threadKey: "cmd_047" },
      { locator: "msg_20260206_093815_8e9f0a1b", agent: "karo", folder: "archive", status: "read", threadKey: null },
    ]);
    expect(pick(readFixture("queue/archive/shogun_to_karo_20260206100500.yaml"), "locator", "folder", "status", "threadKey")).toEqual([
      { locator: "cmd_047", folder: "archive", status: "done", threadKey: "cmd_047" },
    ]);
  });

  it("resolve threads an inbox message that names a task into that task's command", () => {
    const all = resolve(FILES.flatMap(readFixture));
    const byId = new Map(all.filter((e) => e.kind === "message").map((e) => [e.locator, e.threadKey]));
    expect(byId.get("msg_20260206_104155_1b7e90c4")).toBe("cmd_048"); // subtask_048a 完了
    expect(byId.get("msg_20260206_110013_0d0e0f10")).toBe("cmd_048"); // subtask_048a2
    expect(byId.get("msg_20260206_110020_4c2d8e61")).toBe("cmd_048"); // subtask_048c
    expect(byId.get("msg_20260206_105231_c01d5e42")).toBeNull(); // names no task
    expect(byId.get("msg_20260206_105907_77aa0f13")).toBe("cmd_049");
  });
});

describe("shogun read on other inputs", () => {
  it("accepts the later variant (to, subject, body, refs, status) and automatic recovery times with an offset", () => {
    const yaml = "messages:\n- body: see cmd_050\n  from: karo\n  id: msg_auto_recovery_20260206_1\n  status: seen\n  subject: hi\n  timestamp: '2026-02-06T11:00:00+09:00'\n  to: ashigaru1\n  type: wake_up\n";
    expect(read("queue/inbox/ashigaru1.yaml", Buffer.from(yaml)).entries[0]).toMatchObject({
      status: "read", rawStatus: "seen", to: ["ashigaru1"], body: "hi\nsee cmd_050", threadKey: "cmd_050", date: "2026-02-06T02:00:00.000Z",
    });
  });

  it("flags a message in the shogun's inbox and a repeated id, and keeps both", () => {
    const yaml = "messages:\n- {id: m1, from: karo, content: a, read: false}\n- {id: m1, from: karo, content: b, read: false}\n";
    const entries = read("queue/inbox/shogun.yaml", Buffer.from(yaml)).entries;
    expect(entries.map((e) => e.locator)).toEqual(["m1", `m1@${yaml.indexOf("{id: m1, from: karo, content: b")}`]);
    expect(entries[0]?.problems.map((p) => p.code)).toEqual(["rule:no-inbox-to-shogun"]);
    expect(entries[1]?.problems.map((p) => p.code)).toEqual(["rule:no-inbox-to-shogun", "duplicate"]);
  });

  it("reads `messages: []`, an empty file and commands under `queue:` or as a bare mapping", () => {
    expect(read("queue/inbox/karo.yaml", Buffer.from("messages: []\n"))).toEqual({ entries: [], problems: [], consumed: 13 });
    expect(read("queue/inbox/karo.yaml", Buffer.alloc(0))).toEqual({ entries: [], problems: [], consumed: 0 });
    expect(read("queue/shogun_to_karo.yaml", Buffer.from("queue:\n- id: cmd_001\n  status: done\n")).entries.map((e) => e.locator)).toEqual(["cmd_001"]);
    expect(read("queue/shogun_to_karo.yaml", Buffer.from("id: cmd_002\nstatus: paused\n")).entries.map((e) => [e.locator, e.status])).toEqual([["cmd_002", "paused"]]);
    const noIds = "messages:\n- {content: a, read: false}\n- {content: b, read: true}\n";
    expect(read("queue/inbox/karo.yaml", Buffer.from(noIds)).entries.map((e) => e.locator)).toEqual(["12", String(noIds.indexOf("{content: b"))]);
    const twice = read("queue/shogun_to_karo.yaml", Buffer.from("commands:\n- id: cmd_003\n- id: cmd_003\n")).entries;
    expect(twice.map((e) => [e.locator, e.problems.map((p) => p.code)])).toEqual([["cmd_003", []], ["cmd_003@26", ["duplicate"]]]);
  });

  it("reports a half-written inbox as a problem with no entries, to be read again when it changes", () => {
    const r = read("queue/inbox/karo.yaml", Buffer.from("messages:\n- content: 'half\n  from: ka"));
    expect(r.entries).toEqual([]);
    expect(r.problems.map((p) => p.code)).toEqual(["parse"]);
  });

  it("reads an inbox with a byte that is not UTF-8, with an encoding problem", () => {
    const bytes = Buffer.concat([Buffer.from("messages:\n- content: a"), Buffer.from([0xe9]), Buffer.from("\n  id: m1\n  read: false\n")]);
    const r = read("queue/inbox/karo.yaml", bytes);
    expect(r.entries.map((e) => [e.locator, e.body])).toEqual([["m1", "a\uFFFD"]]);
    expect(r.problems.map((p) => p.code)).toEqual(["encoding"]);
  });
});

describe("byteOffsets", () => {
  it("turns string indexes into UTF-8 byte offsets", () => {
    expect(byteOffsets("a進捗b🙂c", [0, 1, 3, 4, 6])).toEqual([0, 1, 7, 8, 12]);
  });
});

describe("an inbox whose messages are not a list of mappings", () => {
  const readInbox = (text: string) => read("queue/inbox/karo.yaml", Buffer.from(text), JST);

  it("is a problem, not an empty inbox (its messages would have gone without a word)", () => {
    const cases: Array<[string, string]> = [
      ["messages: oops\n", 'is not a list of mappings (it is the string "oops")'],
      ["messages:\n  id: msg_1\n  content: hi\n", "is not a list of mappings (it is a mapping)"],
      ["messages: 7\n", "is not a list of mappings (it is the number 7)"],
    ];
    for (const [text, says] of cases) {
      const r = readInbox(text);
      expect(r.entries, text).toEqual([]);
      expect(r.problems, text).toEqual([{ code: "parse", message: expect.stringContaining(says) as string }]);
    }
  });

  it("reads the mappings of a list and names the items that are not", () => {
    const r = readInbox("messages:\n- 1\n- id: msg_a\n  content: hi\n  from: shogun\n  read: false\n- two\n- null\n");
    expect(r.entries.map((e) => e.messageId)).toEqual(["msg_a"]);
    expect(r.problems).toEqual([{ code: "shape", message: "The inbox's `messages:` items 1, 3, 4 are not a mapping: passed over." }]);
  });

  it("is an empty inbox when messages is null, missing or []", () => {
    for (const text of ["messages:\n", "messages: []\n", "other: 1\n", ""]) expect(readInbox(text), text).toMatchObject({ entries: [], problems: [] });
  });
});
