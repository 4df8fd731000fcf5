// The wave-2 protocols through ingest into a real journal: every fixture's entries become messages
// with their protocol's statuses and threads; an appended channel is read from where the last
// read stopped; truncated, replaced and trimmed files keep their entries' history.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { generateKicklang, generateShogun } from "@/lib/bench/generate-wave2";
import { EntryWriter } from "@/lib/journal/entry-writer";
import { openJournal, closeJournals, type Journal } from "@/lib/journal/store";
import { queryHistory, queryPage } from "@/lib/journal/queries";
import { parseQuery } from "@/lib/query";
import { VOCABULARY } from "@/lib/protocols";
import { copyFixture } from "@/lib/testing/fixtures";
import { discoverSources } from "./sources";
import { EntryIngest, type EntrySource } from "./entry-ingest";
import { EMPTY_SETTLED_MS } from "./entry-files";

const temps: string[] = [];
afterEach(() => {
  closeJournals();
  for (const t of temps.splice(0)) fs.rmSync(t, { recursive: true, force: true });
});

async function ingestOf(root: string): Promise<{ journal: Journal; ingest: EntryIngest; sources: EntrySource[] }> {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-entries-data-"));
  temps.push(data);
  const journal = openJournal(path.join(data, "journal.db"));
  const sources = (await discoverSources([root])).flatMap((s) => (s.entries ? [s.entries] : []));
  const ingest = new EntryIngest(journal.db);
  for (const s of sources) await ingest.scan(s);
  return { journal, ingest, sources };
}

function fixture(name: string): string {
  const dir = copyFixture(name);
  temps.push(dir);
  return dir;
}

const page = (j: Journal, q: string) => queryPage(j.db, parseQuery(q, VOCABULARY), 1000, null).items;

describe("each wave-2 fixture through ingest", () => {
  it("shogun: inbox entries read/unread, commands and tasks as documents, no IGNITE phantom", async () => {
    const root = fixture("shogun");
    const all = await discoverSources([root]);
    expect(all.map((s) => s.protocol)).toEqual(["shogun"]);
    const { journal } = await ingestOf(root);
    const items = page(journal, "");
    expect(items.length).toBeGreaterThan(5);
    expect(new Set(items.map((m) => m.protocol))).toEqual(new Set(["shogun"]));
    expect(items.some((m) => m.status === "unread")).toBe(true);
    expect(items.some((m) => m.status === "read")).toBe(true);
    expect(items.every((m) => !m.path?.endsWith(".lock"))).toBe(true);
  });

  it("workflow: messages settled by their acks; agents are the channels' owners, never a blank name", async () => {
    const { journal, ingest, sources } = await ingestOf(fixture("workflow"));
    const { agents } = await ingest.scan(sources[0]!);
    expect(agents).toEqual(expect.arrayContaining(["agent_architecture", "agent_cognitive", "agent_security", "orchestrator", "broadcast"]));
    expect(agents).not.toContain("");
    const items = page(journal, "");
    expect(items.length).toBeGreaterThan(3);
    // Each ack is a step of its message's life, at the ack's own time.
    const acked = items.find((m) => m.messageId === "msg_20260125143023_9a8b7c6d")!;
    expect(queryHistory(journal.db, acked.key).filter((e) => e.kind === "acked")).toEqual([
      { at: "2026-01-25T14:30:25.480Z", kind: "acked", detail: "received by agent_cognitive", data: { by: "agent_cognitive", status: "received", ack: "ack_20260125_143025_def456" } },
    ]);
    const statuses = new Set(items.map((m) => m.status));
    expect([...statuses].some((s) => s === "processed" || s === "received")).toBe(true);
  });

  it("kicklang: requests answered by correlation, threads by their root", async () => {
    const { journal } = await ingestOf(fixture("kicklang"));
    const items = page(journal, "");
    expect(items.length).toBeGreaterThan(3);
    expect(items.some((m) => m.status === "answered")).toBe(true);
  });

  it("ignite-yaml: every v2 message", async () => {
    const { journal } = await ingestOf(fixture("ignite-yaml"));
    const items = page(journal, "");
    expect(items.length).toBeGreaterThan(3);
    expect(new Set(items.map((m) => m.protocol))).toEqual(new Set(["ignite-yaml"]));
    // Threads by task, as IGNITE v3 groups a task's messages; a dead letter joins its original's.
    expect(items.filter((m) => m.threadId === "task_001").length).toBeGreaterThanOrEqual(3);
    expect(items.filter((m) => m.threadId === "task_002").map((m) => m.folder)).toContain("dead_letter");
  });
});

describe("an appended channel", () => {
  it("is read from where the last read stopped; a replaced file's entries are gone, with history", async () => {
    const root = fixture("kicklang");
    const { journal, ingest, sources } = await ingestOf(root);
    const source = sources[0]!;
    const file = path.join(root, ".kicklang", "channels", "report", "status.jsonl");
    const before = page(journal, "").length;
    const line = (id: string) => JSON.stringify({ id, channel: "report/status", sender: "ops", content: "status ok", timestamp: "2026-11-26T10:00:00Z", type: "report" }) + "\n";
    fs.appendFileSync(file, line("env-append-1"));
    // Half a value: a write in progress waits for its end.
    fs.appendFileSync(file, line("env-append-2").slice(0, 20));
    await ingest.scan(source);
    expect(page(journal, "").length).toBe(before + 1);
    fs.appendFileSync(file, line("env-append-2").slice(20));
    await ingest.scan(source);
    const appended = page(journal, "").filter((m) => m.messageId?.startsWith("env-append"));
    expect(appended.map((m) => m.messageId).sort()).toEqual(["env-append-1", "env-append-2"]);

    fs.writeFileSync(file, line("env-new"));
    await ingest.scan(source);
    const gone = page(journal, "").find((m) => m.messageId === "env-append-1")!;
    expect(gone.path).toBeNull();
    expect(queryHistory(journal.db, gone.key).map((e) => e.kind)).toContain("gone");
    expect(page(journal, "").some((m) => m.messageId === "env-new" && m.path !== null)).toBe(true);
  });
});

describe("a shogun inbox rewritten", () => {
  const first = `- content: subtask_048a のQCを行え。
  from: karo
  id: msg_20260206_104230_e3f4a5b6
  read: true
  timestamp: '2026-02-06T10:42:30'
  type: task_assigned
`;
  const second = `- content: subtask_048a2 完了後に再QCせよ。
  from: karo
  id: msg_20260206_110025_f60718a9
  read: false
  timestamp: '2026-02-06T11:00:25'
  type: task_assigned
`;

  it("keeps the key and history of an entry moved to the archive, and of one trimmed away", async () => {
    const root = fixture("shogun");
    const { journal, ingest, sources } = await ingestOf(root);
    const source = sources[0]!;
    const byId = (id: string) => page(journal, "").find((m) => m.messageId === id)!;
    const movedKey = byId("msg_20260206_104230_e3f4a5b6").key;
    const trimmedKey = byId("msg_20260206_110025_f60718a9").key;

    // Archived: written to the archive, then the inbox rewritten without it (one scan sees both).
    fs.writeFileSync(path.join(root, "queue", "archive", "inbox_gunshi_20260207090000.yaml"), `messages:\n${first}`);
    fs.writeFileSync(path.join(root, "queue", "inbox", "gunshi.yaml"), `messages:\n${second}`);
    await ingest.scan(source);
    const moved = byId("msg_20260206_104230_e3f4a5b6");
    expect(moved).toMatchObject({ key: movedKey, path: "queue/archive/inbox_gunshi_20260207090000.yaml", folder: "archive", status: "read" });
    // Its parsed structure (the message page's Structured view) comes along.
    expect(JSON.parse(journal.db.prepare("SELECT data FROM entries WHERE key = ?").pluck().get(movedKey) as string)).toMatchObject({ id: "msg_20260206_104230_e3f4a5b6", read: true });
    const history = queryHistory(journal.db, movedKey);
    expect(history.map((e) => e.kind)).toEqual(["seen", "moved"]);
    // History is data: the move's facts, not a sentence to parse back.
    expect(history[1]?.data).toEqual({ from: "queue/inbox/gunshi.yaml", to: "queue/archive/inbox_gunshi_20260207090000.yaml", fromFolder: "inbox", toFolder: "archive" });

    // Trimmed: the inbox rewritten without it, nowhere else.
    fs.writeFileSync(path.join(root, "queue", "inbox", "gunshi.yaml"), "messages: []\n");
    await ingest.scan(source);
    expect(byId("msg_20260206_110025_f60718a9")).toMatchObject({ key: trimmedKey, path: null, status: "unread" });
    expect(queryHistory(journal.db, trimmedKey).map((e) => e.kind)).toEqual(["seen", "trimmed"]);
  });

  it("trimmed in one scan and found in the archive in a later one: moved from the inbox, not 'back'; back when its inbox has it again", async () => {
    const root = fixture("shogun");
    const { journal, ingest, sources } = await ingestOf(root);
    const source = sources[0]!;
    const inbox = path.join(root, "queue", "inbox", "gunshi.yaml");
    const key = page(journal, "").find((m) => m.messageId === "msg_20260206_104230_e3f4a5b6")!.key;
    fs.writeFileSync(inbox, `messages:\n${second}`);
    await ingest.scan(source);
    fs.writeFileSync(path.join(root, "queue", "archive", "inbox_gunshi_20260207090000.yaml"), `messages:\n${first}`);
    await ingest.scan(source);
    const archived = queryHistory(journal.db, key);
    expect(archived.map((e) => e.kind)).toEqual(["seen", "trimmed", "moved"]);
    expect(archived[2]).toMatchObject({
      detail: "moved from queue/inbox/gunshi.yaml to queue/archive/inbox_gunshi_20260207090000.yaml",
      data: { from: "queue/inbox/gunshi.yaml", to: "queue/archive/inbox_gunshi_20260207090000.yaml", fromFolder: "inbox", toFolder: "archive" },
    });
    // Gone from the archive, then in its inbox again: back where it was last before that.
    fs.rmSync(path.join(root, "queue", "archive", "inbox_gunshi_20260207090000.yaml"));
    await ingest.scan(source);
    fs.writeFileSync(path.join(root, "queue", "archive", "inbox_gunshi_20260207090000.yaml"), `messages:\n${first}`);
    await ingest.scan(source);
    expect(queryHistory(journal.db, key).at(-1)).toMatchObject({ kind: "moved", detail: "back, in queue/archive/inbox_gunshi_20260207090000.yaml", data: { from: null } });
  });

  it("emptied to no bytes and left so: its messages leave, trimmed, as from `messages: []`; just emptied, they stay", async () => {
    const root = fixture("shogun");
    const { journal, ingest, sources } = await ingestOf(root);
    const inbox = path.join(root, "queue", "inbox", "karo.yaml");
    const held = fs.readFileSync(inbox, "utf8");
    const keys = page(journal, "").filter((m) => m.path === "queue/inbox/karo.yaml").map((m) => m.key);
    expect(keys.length).toBeGreaterThan(0);
    // slim_yaml rewrites an inbox in place (open('w')): just emptied, it may be one caught between its truncate and its write.
    fs.truncateSync(inbox, 0);
    await ingest.scan(sources[0]!);
    expect(page(journal, "").filter((m) => keys.includes(m.key)).map((m) => m.path)).toEqual(keys.map(() => "queue/inbox/karo.yaml"));
    fs.writeFileSync(inbox, held);
    await ingest.scan(sources[0]!);
    for (const key of keys) expect(queryHistory(journal.db, key).map((e) => e.kind)).not.toContain("trimmed");
    fs.truncateSync(inbox, 0);
    // Still empty a while later (`: > karo.yaml` by hand): the next scan reads it so.
    const past = new Date(Date.now() - EMPTY_SETTLED_MS - 1000);
    fs.utimesSync(inbox, past, past);
    await ingest.scan(sources[0]!);
    const left = page(journal, "").filter((m) => keys.includes(m.key));
    expect(left.map((m) => m.path)).toEqual(keys.map(() => null));
    for (const key of keys) expect(queryHistory(journal.db, key).at(-1)?.kind).toBe("trimmed");
    // Written again: read from its start, as any inbox.
    fs.writeFileSync(inbox, `messages:\n${second}`);
    await ingest.scan(sources[0]!);
    expect(page(journal, "").find((m) => m.messageId === "msg_20260206_110025_f60718a9")?.path).toBe("queue/inbox/karo.yaml");
  });

  it("flips unread to read in place, with a status event", async () => {
    const root = fixture("shogun");
    const { journal, ingest, sources } = await ingestOf(root);
    fs.writeFileSync(path.join(root, "queue", "inbox", "gunshi.yaml"), `messages:\n${first}${second.replace("read: false", "read: true")}`);
    await ingest.scan(sources[0]!);
    const m = page(journal, "").find((x) => x.messageId === "msg_20260206_110025_f60718a9")!;
    expect(m.status).toBe("read");
    expect(queryHistory(journal.db, m.key).at(-1)).toMatchObject({ kind: "status", detail: "unread → read" });
  });
});

describe("detection", () => {
  it("reads several protocols in one root and several roots side by side", async () => {
    const root = fixture("shogun");
    fs.cpSync(fixture("kicklang"), root, { recursive: true });
    const other = fixture("workflow");
    const found = await discoverSources([root, other]);
    expect(found.map((s) => `${s.protocol}:${s.error ?? "ok"}`).sort()).toEqual(["kicklang:ok", "shogun:ok", "workflow:ok"]);
  });

  it("never offers a shogun or IGNITE v2 queue to IGNITE v3 (no agents called inbox or archive)", async () => {
    for (const name of ["shogun", "ignite-yaml"]) {
      const found = await discoverSources([fixture(name)]);
      expect(found.map((s) => s.protocol)).toEqual([name]);
    }
  });
});

describe("journalWord", () => {
  it("keeps a status a file writes loosely as one word, and never lets a bad one through", async () => {
    const { journalWord } = await import("@/lib/journal/entry-writer");
    expect(journalWord("In Progress", "unknown")).toBe("in_progress");
    expect(journalWord("待機", "unknown")).toBe("unknown");
    expect(journalWord("x".repeat(100), "unknown")).toHaveLength(32);
  });
});

describe("a workflow message waiting for its ack", () => {
  it("is stuck once overdue, and settled (processed, no longer stuck) by an ack appended later", async () => {
    const root = fixture("workflow");
    const { journal, ingest, sources } = await ingestOf(root);
    const id = "msg_20260125143455_5e6f7a8b";
    const find = () => page(journal, "").find((m) => m.messageId === id)!;
    expect(find()).toMatchObject({ status: "unacked", stuck: false });
    ingest.sweepDue();
    expect(find()).toMatchObject({ status: "unacked", stuck: true });
    expect(queryHistory(journal.db, find().key).map((e) => e.kind)).toContain("overdue");

    const [run] = fs.readdirSync(path.join(root, ".claude", "workflow")).filter((n) => n.startsWith("orchestrate_"));
    const ack = { id: "ack_late", timestamp: "2026-01-25T14:40:00.000Z", ack_for: id, from: "agent_security", status: "processed" };
    fs.appendFileSync(path.join(root, ".claude", "workflow", run!, "channel", "agents", "agent_security.ack"), JSON.stringify(ack) + "\n");
    await ingest.scan(sources[0]!);
    expect(find()).toMatchObject({ status: "processed", stuck: false });
    expect(queryHistory(journal.db, find().key).at(-1)).toMatchObject({ kind: "status", detail: "unacked → processed" });
  });
});

describe("an IGNITE v2 tree as its monitor changes it", () => {
  it("completes a handled message its agent deletes, deadens one a dead letter holds, and keeps an escalation through its rename", async () => {
    const root = fixture("ignite-yaml");
    const { journal, ingest, sources } = await ingestOf(root);
    const scan = () => ingest.scan(sources[0]!);
    const byPath = (p: string) => page(journal, "").find((m) => m.path === p || (m.path === null && m.messageId === p.split("/").pop()!.replace(/\.yaml$/, "")));

    const delivered = "queue/leader/processed/strategy_response_1770261852700100.yaml";
    const key = byPath(delivered)!.key;
    fs.rmSync(path.join(root, delivered));
    await scan();
    expect(page(journal, "").find((m) => m.key === key)).toMatchObject({ path: null, status: "completed" });

    const original = "queue/ignitian_3/task_assignment_1770262835003318.yaml";
    const originalKey = byPath(original)!.key;
    const dlq = "queue/dead_letter/task_assignment_1770262835003318_dlq_1770263999.yaml";
    fs.writeFileSync(path.join(root, dlq), `type: dead_letter\noriginal_file: "task_assignment_1770262835003318.yaml"\nfailure_info:\n  retry_count: 3\n  last_error: "timeout"\noriginal_message: |\n  type: task_assignment\n  from: coordinator\n  to: ignitian_3\n`);
    fs.rmSync(path.join(root, original));
    await scan();
    expect(page(journal, "").find((m) => m.key === originalKey)).toMatchObject({ path: null, status: "dead" });
    expect(byPath(dlq)).toMatchObject({ deadLetterOf: originalKey });

    const escalation = "queue/leader/escalation_1770263140.yaml";
    const escalationKey = byPath(escalation)!.key;
    fs.renameSync(path.join(root, escalation), path.join(root, "queue/leader/processed/escalation_1770263140123456.yaml"));
    await scan();
    const renamed = page(journal, "").filter((m) => m.type === "escalation");
    expect(renamed).toHaveLength(1);
    expect(renamed[0]).toMatchObject({ key: escalationKey, path: "queue/leader/processed/escalation_1770263140123456.yaml" });
  });
});

describe("a message gone from its file", () => {
  it("keeps where it was last seen through a status settled anew, so found elsewhere it has moved from there", async () => {
    const root = fixture("ignite-yaml");
    const { journal, ingest, sources } = await ingestOf(root);
    const source = sources[0]!;
    const original = "queue/ignitian_3/task_assignment_1770262835003318.yaml";
    const text = fs.readFileSync(path.join(root, original), "utf8");
    const key = page(journal, "").find((m) => m.path === original)!.key;
    const lastPath = () => journal.db.prepare("SELECT last_path FROM messages WHERE key = ?").pluck().get(key);
    fs.rmSync(path.join(root, original));
    await ingest.scan(source);
    // A dead letter holding it: the gone row's status is settled again (dead), and rewritten.
    fs.writeFileSync(
      path.join(root, "queue/dead_letter/task_assignment_1770262835003318_dlq_1770263999.yaml"),
      `type: dead_letter\noriginal_file: "task_assignment_1770262835003318.yaml"\nfailure_info:\n  retry_count: 3\n  last_error: "timeout"\noriginal_message: |\n  type: task_assignment\n  from: coordinator\n  to: ignitian_3\n`,
    );
    await ingest.scan(source);
    expect(lastPath()).toBe(original);
    fs.mkdirSync(path.join(root, "queue/ignitian_3/processed"), { recursive: true });
    fs.writeFileSync(path.join(root, "queue/ignitian_3/processed/task_assignment_1770262835003318.yaml"), text);
    await ingest.scan(source);
    expect(queryHistory(journal.db, key).find((e) => e.kind === "moved")).toMatchObject({
      detail: `moved from ${original} to queue/ignitian_3/processed/task_assignment_1770262835003318.yaml`,
      data: { from: original, fromFolder: "queue", toFolder: "processed" },
    });
  });
});

describe("a channel bigger than a scan reads at a time", () => {
  it("is journaled a chunk at a time, a value longer than a chunk too, with the rows of a read in one go", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-entries-chunks-"));
    temps.push(root);
    generateKicklang(root, 600);
    // A value three chunks long in the middle of the biggest channel.
    const channel = (fs.readdirSync(root, { recursive: true }) as string[])
      .filter((f) => f.endsWith(".jsonl"))
      .map((f) => path.join(root, f))
      .reduce((a, b) => (fs.statSync(b).size > fs.statSync(a).size ? b : a));
    const lines = fs.readFileSync(channel, "utf8").split("\n");
    const long = { ...(JSON.parse(lines[0]!) as object), id: "long-value", content: "x".repeat(12 * 1024) };
    lines.splice(Math.floor(lines.length / 2), 0, JSON.stringify(long));
    fs.writeFileSync(channel, lines.join("\n"));
    const channels = (await discoverSources([root])).flatMap((s) => (s.entries ? [s.entries] : []));
    const rowsOf = async (limits?: { first: number; rest: number; tailBytes: number; chunkBytes?: number }) => {
      const data = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-entries-chunks-data-"));
      temps.push(data);
      const journal = openJournal(path.join(data, "journal.db"));
      const ingest = new EntryIngest(journal.db, () => Date.parse("2026-11-26T12:00:00Z"), {}, limits);
      for (const s of channels) await ingest.scan(s);
      return journal.db.prepare("SELECT key, message_id, status, thread_id, body, sort_ms FROM messages ORDER BY key").all();
    };
    const whole = await rowsOf();
    const apply = vi.spyOn(EntryWriter.prototype, "apply");
    const chunked = await rowsOf({ first: 20, rest: 20, tailBytes: Infinity, chunkBytes: 4096 });
    const perCommit = apply.mock.calls.map((c) => c[1].reduce((n, r) => n + r.entries.length, 0));
    apply.mockRestore();
    expect(whole.some((r) => (r as { message_id: string }).message_id === "long-value")).toBe(true);
    expect(chunked).toEqual(whole);
    // A chunk of 4 KB holds ~14 values: a commit is never a whole channel's hundreds.
    expect(Math.max(...perCommit)).toBeLessThan(60);
  }, 60_000);
});

describe("a commit of several sources' entries", () => {
  it("gives the event loop a turn between one source's transaction and the next", async () => {
    const root = fixture("workflow");
    copyFixture("kicklang", root);
    const data = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-entries-turns-"));
    temps.push(data);
    const ingest = new EntryIngest(openJournal(path.join(data, "journal.db")).db, undefined, {}, { first: 1_000_000, rest: 1_000_000, tailBytes: Infinity });
    const sources = (await discoverSources([root])).flatMap((s) => (s.entries ? [s.entries] : []));
    expect(sources).toHaveLength(2);
    const steps: string[] = [];
    const original = EntryWriter.prototype.apply;
    const spied = vi.spyOn(EntryWriter.prototype, "apply").mockImplementation(function (this: EntryWriter, ...args) {
      steps.push("apply");
      return original.apply(this, args);
    });
    await ingest.load(await Promise.all(sources.map((s) => ingest.plan(s))), { pause: async () => void steps.push("pause") });
    spied.mockRestore();
    // Reading takes turns of its own once it has run YIELD_AFTER_MS, which a busy machine reaches
    // before the first commit: only the turn between the two transactions, and the one after, are this test's.
    const applies = steps.flatMap((step, i) => (step === "apply" ? [i] : []));
    expect(applies).toHaveLength(2);
    expect(steps.slice(applies[0]! + 1, applies[1])).toEqual(["pause"]);
    expect(steps.slice(applies[1]! + 1)).toEqual(["pause"]);
  });
});

describe("files read whole", () => {
  it("are journaled as read: one changed after its read is journaled as it was, and its change by the next scan", async () => {
    const root = fixture("ignite-yaml");
    const data = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-entries-read-"));
    temps.push(data);
    const journal = openJournal(path.join(data, "journal.db"));
    const ingest = new EntryIngest(journal.db, undefined, {}, { first: 1, rest: 1, tailBytes: Infinity });
    const [source] = (await discoverSources([root])).flatMap((s) => (s.entries ? [s.entries] : []));
    const plan = await ingest.plan(source!);
    expect(plan.changed.length).toBeGreaterThan(3);
    // At each commit, the files it holds (read already) are rewritten by another sender.
    const original = EntryWriter.prototype.apply;
    const rewritten = new Set<string>();
    const spied = vi.spyOn(EntryWriter.prototype, "apply").mockImplementation(function (this: EntryWriter, ...args) {
      for (const { relPath } of args[1]) {
        const abs = path.join(root, relPath);
        if (rewritten.has(relPath) || !fs.readFileSync(abs, "utf8").match(/^from: .*$/m)) continue;
        rewritten.add(relPath);
        fs.writeFileSync(abs, fs.readFileSync(abs, "utf8").replace(/^from: .*$/m, "from: late_writer"));
      }
      return original.apply(this, args);
    });
    await ingest.load([plan], { pause: async () => {} });
    spied.mockRestore();
    const late = () => journal.db.prepare("SELECT count(*) FROM messages WHERE from_name = 'late_writer'").pluck().get() as number;
    const asRead = journal.db.prepare("SELECT count(*) FROM messages").pluck().get() as number;
    expect(rewritten.size).toBeGreaterThan(3);
    expect(late()).toBe(0);
    await ingest.scan(source!);
    expect(late()).toBe(rewritten.size);
    expect(journal.db.prepare("SELECT count(*) FROM messages").pluck().get()).toBe(asRead);
  });
});

describe("a first scan's commits", () => {
  it("hold a few thousand entries each, never a long stretch of the main thread", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-entries-commits-"));
    temps.push(root);
    generateShogun(root, 6_000);
    const original = EntryWriter.prototype.apply;
    const perCommit: number[] = [];
    const spied = vi.spyOn(EntryWriter.prototype, "apply").mockImplementation(function (this: EntryWriter, ...args) {
      perCommit.push(args[1].reduce((n, r) => n + r.entries.length, 0));
      return original.apply(this, args);
    });
    const { journal } = await ingestOf(root);
    spied.mockRestore();
    expect(journal.db.prepare("SELECT count(*) FROM messages").pluck().get()).toBe(6_000);
    expect(perCommit.length).toBeGreaterThan(2);
    expect(Math.max(...perCommit)).toBeLessThanOrEqual(2_100);
  }, 60_000);
});
