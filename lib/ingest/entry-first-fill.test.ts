// A first fill (a source the journal holds nothing of) takes a shorter path than later scans: no
// earlier-self lookups, rows inserted as bound values. The journal it leaves, and every scan after it
// (appends, trims, moves, a deleted file, a restart), must be exactly what the general path gives:
// both paths read the same tree into journals of their own, which are compared table by table.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { EntryWriter } from "@/lib/journal/entry-writer";
import { closeJournals, openJournal } from "@/lib/journal/store";
import { generateKicklang, generateWorkflow } from "@/lib/bench/generate-wave2";
import { copyFixture } from "@/lib/testing/fixtures";
import { dumpJournal as dump } from "@/lib/testing/journal-dump";
import { discoverSources } from "./sources";
import { EntryIngest, type EntrySource } from "./entry-ingest";

const temps: string[] = [];
afterEach(() => {
  closeJournals();
  for (const t of temps.splice(0)) fs.rmSync(t, { recursive: true, force: true });
});
const temp = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
};

const NOW = Date.parse("2026-11-26T12:00:00Z");

/** The same tree journaled twice: through the first-fill path, and through the general one. */
async function twoPaths(root: string) {
  const data = temp("mailroom-first-fill-");
  const files = { fill: path.join(data, "fill.db"), general: path.join(data, "general.db") };
  const sources = (await discoverSources([root])).flatMap((s) => (s.entries ? [s.entries] : []));
  expect(sources.length).toBeGreaterThan(0);
  const open = () => ({
    fill: new EntryIngest(openJournal(files.fill).db, () => NOW, {}, undefined, true),
    general: new EntryIngest(openJournal(files.general).db, () => NOW, {}, undefined, false),
  });
  let ingest = open();
  const scan = async (source: EntrySource) => {
    await ingest.fill.scan(source);
    await ingest.general.scan(source);
  };
  return {
    sources,
    scanAll: async () => {
      for (const s of sources) await scan(s);
    },
    same: () => {
      const fill = dump(files.fill);
      expect(fill.messages!.length).toBeGreaterThan(0);
      expect(fill).toEqual(dump(files.general));
    },
    restart: () => {
      closeJournals();
      ingest = open();
    },
  };
}

const write = (root: string, rel: string, text: string) => fs.writeFileSync(path.join(root, rel), text);
const append = (root: string, rel: string, text: string) => fs.appendFileSync(path.join(root, rel), text);

describe("a first fill and the general path", () => {
  it("shogun: an id in two files at the first fill, then a move to the archive, a trim, a deleted inbox and a restart", async () => {
    const root = copyFixture("shogun");
    temps.push(root);
    const inbox = "queue/inbox/gunshi.yaml";
    const [firstId] = /id: (\S+)/.exec(fs.readFileSync(path.join(root, inbox), "utf8"))!.slice(1);
    // Caught mid-move: the archive already holds an inbox entry's twin when the journal first sees them.
    write(root, "queue/archive/inbox_gunshi_20260101000000.yaml", `messages:\n- content: twin\n  from: karo\n  id: ${firstId}\n  read: true\n  timestamp: '2026-02-06T10:00:00'\n  type: task_assigned\n`);
    const paths = await twoPaths(root);
    await paths.scanAll();
    paths.same();
    write(root, inbox, "messages: []\n");
    await paths.scanAll();
    paths.same();
    fs.rmSync(path.join(root, "queue/archive/inbox_gunshi_20260101000000.yaml"));
    await paths.scanAll();
    paths.same();
    paths.restart();
    write(root, inbox, `messages:\n- content: back\n  from: karo\n  id: ${firstId}\n  read: false\n  timestamp: '2026-02-07T10:00:00'\n  type: task_assigned\n`);
    await paths.scanAll();
    paths.same();
  });

  it("KickLang: appends (one cut mid-value), a replaced channel and a restart", async () => {
    const root = copyFixture("kicklang");
    temps.push(root);
    const paths = await twoPaths(root);
    await paths.scanAll();
    paths.same();
    const channel = ".kicklang/channels/report/status.jsonl";
    const line = (id: string) => JSON.stringify({ id, channel: "report/status", sender: "ops", content: "status ok", timestamp: "2026-11-26T10:00:00Z", type: "report" }) + "\n";
    append(root, channel, line("env-append-1") + line("env-append-2").slice(0, 20));
    await paths.scanAll();
    paths.same();
    paths.restart();
    append(root, channel, line("env-append-2").slice(20));
    await paths.scanAll();
    paths.same();
    write(root, channel, line("env-new"));
    await paths.scanAll();
    paths.same();
    // Every file gone: the journal still holds the source's entries, so its next scan is no first fill.
    const channels = path.join(root, ".kicklang", "channels");
    const kept = temp("mailroom-first-fill-kept-");
    fs.cpSync(channels, kept, { recursive: true });
    fs.rmSync(channels, { recursive: true });
    fs.mkdirSync(channels);
    await paths.scanAll();
    paths.same();
    fs.cpSync(kept, channels, { recursive: true });
    await paths.scanAll();
    paths.same();
  });

  it("workflow: acks settling messages, a late ack appended and a channel deleted", async () => {
    const root = copyFixture("workflow");
    temps.push(root);
    const paths = await twoPaths(root);
    await paths.scanAll();
    paths.same();
    const base = ".claude/workflow/orchestrate_20260125_143000_a1b2c3d4/channel";
    append(root, `${base}/agents/agent_security.ack`, JSON.stringify({ id: "ack_late", timestamp: "2026-01-25T14:40:00.000Z", ack_for: "msg_20260125143455_5e6f7a8b", from: "agent_security", status: "processed" }) + "\n");
    await paths.scanAll();
    paths.same();
    fs.rmSync(path.join(root, `${base}/broadcast.jsonl`));
    await paths.scanAll();
    paths.same();
  });

  it("IGNITE v2: a delivered message deleted, a dead letter holding its original, a renamed escalation", async () => {
    const root = copyFixture("ignite-yaml");
    temps.push(root);
    const paths = await twoPaths(root);
    await paths.scanAll();
    paths.same();
    fs.rmSync(path.join(root, "queue/leader/processed/strategy_response_1770261852700100.yaml"));
    write(root, "queue/dead_letter/task_assignment_1770262835003318_dlq_1770263999.yaml", `type: dead_letter\noriginal_file: "task_assignment_1770262835003318.yaml"\nfailure_info:\n  retry_count: 3\n  last_error: "timeout"\noriginal_message: |\n  type: task_assignment\n  from: coordinator\n  to: ignitian_3\n`);
    fs.rmSync(path.join(root, "queue/ignitian_3/task_assignment_1770262835003318.yaml"));
    fs.renameSync(path.join(root, "queue/leader/escalation_1770263140.yaml"), path.join(root, "queue/leader/processed/escalation_1770263140123456.yaml"));
    await paths.scanAll();
    paths.same();
  });

  it("generated trees of several batches each: requests answered and messages acked across batches", async () => {
    const root = temp("mailroom-first-fill-tree-");
    // Over BATCH_ENTRIES (2,000) entries each.
    generateKicklang(root, 5_200);
    generateWorkflow(root, 3_100);
    const paths = await twoPaths(root);
    await paths.scanAll();
    paths.same();
  }, 120_000);
});

describe("a first fill of channels read from their tails first", () => {
  it("takes the first-fill path, and ends as the general path does", async () => {
    const root = temp("mailroom-first-fill-tails-");
    // Several channels over the tail's 16 KB: each tail is journaled first, then met again from its channel's start.
    generateKicklang(root, 3_000);
    const sources = (await discoverSources([root])).flatMap((s) => (s.entries ? [s.entries] : []));
    const data = temp("mailroom-first-fill-tails-db-");
    const limits = { first: 1_000, rest: 5_000, tailBytes: 16 * 1024 };
    const fill = new EntryIngest(openJournal(path.join(data, "fill.db")).db, () => NOW, {}, limits, true);
    const general = new EntryIngest(openJournal(path.join(data, "general.db")).db, () => NOW, {}, limits, false);
    const apply = vi.spyOn(EntryWriter.prototype, "apply");
    await fill.load(await Promise.all(sources.map((s) => fill.plan(s))), { pause: async () => {} });
    const tails = apply.mock.calls.filter((c) => c[1].some((r) => r.tailOnly)).length;
    const firstFills = apply.mock.calls.map((c) => c[3]?.firstFill === true);
    apply.mockRestore();
    await general.load(await Promise.all(sources.map((s) => general.plan(s))), { pause: async () => {} });
    expect(tails).toBeGreaterThan(0);
    expect(firstFills.every(Boolean)).toBe(true);
    expect(dump(path.join(data, "fill.db"))).toEqual(dump(path.join(data, "general.db")));
  }, 120_000);
});

describe("a first fill cut short by a start's first turn", () => {
  it.each(["ignite-yaml", "shogun", "workflow", "kicklang"])("goes on as a first fill in the next load, and ends as the general path does (%s)", async (protocol) => {
    const root = copyFixture(protocol);
    temps.push(root);
    const sources = (await discoverSources([root])).flatMap((s) => (s.entries ? [s.entries] : []));
    const data = temp("mailroom-first-fill-turns-");
    const oneFileACommit = { first: 1, rest: 1, tailBytes: Infinity };
    const fill = new EntryIngest(openJournal(path.join(data, "fill.db")).db, () => NOW, {}, oneFileACommit, true);
    const general = new EntryIngest(openJournal(path.join(data, "general.db")).db, () => NOW, {}, oneFileACommit, false);
    const firstFills: boolean[] = [];
    const apply = vi.spyOn(EntryWriter.prototype, "apply");
    const plans = async (ingest: EntryIngest) => Promise.all(sources.map((s) => ingest.plan(s)));
    await fill.load(await plans(fill), { pause: async () => {}, maxCommits: 1 });
    apply.mockClear();
    await fill.load(await plans(fill), { pause: async () => {} });
    firstFills.push(...apply.mock.calls.map((c) => c[3]?.firstFill === true));
    apply.mockRestore();
    await general.load(await plans(general), { pause: async () => {} });
    expect(firstFills.length).toBeGreaterThan(0);
    expect(firstFills.every(Boolean)).toBe(true);
    expect(dump(path.join(data, "fill.db"))).toEqual(dump(path.join(data, "general.db")));
  });
});
