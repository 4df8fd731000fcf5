// Hostile input in many-entry files: each case is listed with a problem or skipped as its protocol
// says, never a crash, a hang or a duplicate, and reading goes on after it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeJournals, openJournal, type Journal } from "@/lib/journal/store";
import { queryContent, queryHistory, queryPage } from "@/lib/journal/queries";
import { parseQuery } from "@/lib/query";
import { VOCABULARY } from "@/lib/protocols";
import { copyFixture } from "@/lib/testing/fixtures";
import { EntryIngest, type EntrySource } from "./entry-ingest";
import { discoverSources } from "./sources";

const temps: string[] = [];
afterEach(() => {
  closeJournals();
  for (const t of temps.splice(0)) fs.rmSync(t, { recursive: true, force: true });
});

function temp(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

interface Harness {
  root: string;
  journal: Journal;
  scan: () => Promise<void>;
  all: () => ReturnType<typeof queryPage>["items"];
}

async function harness(fixture: string): Promise<Harness> {
  const root = copyFixture(fixture);
  temps.push(root);
  const journal = openJournal(path.join(temp("mailroom-hostile-data-"), "journal.db"));
  const ingest = new EntryIngest(journal.db);
  const sources = async (): Promise<EntrySource[]> => (await discoverSources([root])).flatMap((s) => (s.entries ? [s.entries] : []));
  const scan = async () => {
    for (const s of await sources()) await ingest.scan(s);
  };
  await scan();
  return { root, journal, scan, all: () => queryPage(journal.db, parseQuery("", VOCABULARY), 5000, null).items };
}

const envelope = (id: string) => JSON.stringify({ id, timestamp: "2026-11-26T10:00:00Z", sender: "Orchestrator", receiver: "WePlan", type: "Command", channel: "⫻command/dispatch", content: "⫻command/dispatch:task/9\nTask ID: t", correlation_id: null });

describe("a KickLang channel", () => {
  const channel = (root: string) => path.join(root, ".kicklang", "channels", "command", "dispatch.jsonl");

  it("lists a malformed line as a problem and reads the lines after it", async () => {
    const h = await harness("kicklang");
    fs.appendFileSync(channel(h.root), `{"id": "broken", "sender": \n${envelope("after-broken")}\n`);
    await h.scan();
    expect(h.all().filter((m) => m.messageId === "after-broken")).toHaveLength(1);
    const problems = h.all().filter((m) => m.status === "invalid");
    expect(problems).toHaveLength(1);
    expect(problems[0]?.problems[0]).toMatch(/cut off|JSON/);
  });

  it("reads an envelope timed at JavaScript's last date, and the envelopes after it (its due time threw, and stopped every scan)", async () => {
    const h = await harness("kicklang");
    const last = JSON.stringify({ ...(JSON.parse(envelope("at-the-end")) as object), timestamp: 8_640_000_000_000_000 });
    fs.appendFileSync(channel(h.root), `${last}\n${envelope("after-the-end")}\n`);
    await h.scan();
    expect(h.all().find((m) => m.messageId === "at-the-end")?.date).toBe("+275760-09-13T00:00:00.000Z");
    expect(h.all().filter((m) => m.messageId === "after-the-end")).toHaveLength(1);
  });

  it("lists what a reader that throws passed over as a problem, and the scan goes on to the other files", async () => {
    const root = copyFixture("kicklang");
    temps.push(root);
    const journal = openJournal(path.join(temp("mailroom-hostile-data-"), "journal.db"));
    const ingest = new EntryIngest(journal.db);
    const [source] = (await discoverSources([root])).flatMap((s) => (s.entries ? [s.entries] : []));
    if (!source) throw new Error("no KickLang source");
    const side = { ...source.side, read: (rel: string, bytes: Uint8Array, ctx?: Parameters<typeof source.side.read>[2]) => (rel.endsWith("dispatch.jsonl") ? (() => { throw new Error("a reader's bug"); })() : source.side.read(rel, bytes, ctx)) };
    await ingest.scan({ ...source, side });
    const all = queryPage(journal.db, parseQuery("", VOCABULARY), 5000, null).items;
    const failed = all.filter((m) => m.path?.endsWith("dispatch.jsonl"));
    expect(failed.map((m) => m.status)).toEqual(["invalid"]);
    expect(failed[0]?.problems[0]).toMatch(/Mailroom's kicklang reader failed on \.kicklang\/channels\/command\/dispatch\.jsonl \(a reader's bug\); these [\d,]+ bytes were passed over/);
    expect(all.filter((m) => m.status !== "invalid").length).toBeGreaterThan(0);
  });

  it("keeps two envelopes with one id apart, in one read and across appends, each listed, the later with a problem", async () => {
    const h = await harness("kicklang");
    const withContent = (id: string, content: string) => JSON.stringify({ ...(JSON.parse(envelope(id)) as object), content });
    fs.appendFileSync(channel(h.root), `${withContent("dup", "one")}\n${withContent("dup", "two")}\n`);
    await h.scan();
    fs.appendFileSync(channel(h.root), `${withContent("dup", "three")}\n`);
    await h.scan();
    const dups = h.all().filter((m) => m.messageId === "dup").sort((a, b) => (a.preview < b.preview ? -1 : 1));
    // Before, the second and third took the first one's row: one message, no word of the others.
    expect(dups.map((m) => m.preview)).toEqual(["one", "three", "two"]);
    expect(dups.map((m) => m.problems.some((p) => /has the same id, dup: this one is listed apart/.test(p)))).toEqual([false, true, true]);
    await h.scan();
    expect(h.all().filter((m) => m.messageId === "dup")).toHaveLength(3);
  });

  it("keeps envelopes whose id is a lone surrogate apart across appends, though their ids read back from SQLite as U+FFFD", async () => {
    const h = await harness("kicklang");
    // JSON.stringify escapes a lone surrogate, as a writer may: the line reads back as "\ud800".
    fs.appendFileSync(channel(h.root), `${envelope("\ud800")}\n${envelope("\udc00")}\n`);
    await h.scan();
    // Two values, so the append is a read of many entries (see EntryWriter.journalFile).
    fs.appendFileSync(channel(h.root), `${envelope("\ud800")}\n${envelope("after-odd")}\n`);
    await h.scan();
    await h.scan();
    expect(h.all().filter((m) => m.messageId === "after-odd")).toHaveLength(1);
    const odd = h.all().filter((m) => m.messageId?.includes("\ufffd"));
    expect(odd).toHaveLength(3);
    expect(odd.filter((m) => m.problems.some((p) => /has the same id/.test(p)))).toHaveLength(1);
  });

  it("keeps each envelope's own bytes when a read's bytes are more than one statement takes (1 MB)", async () => {
    const h = await harness("kicklang");
    const lines = ["big-1", "big-2", "big-3", "big-4"].map((id, i) => JSON.stringify({ ...(JSON.parse(envelope(id)) as object), content: `${i}`.repeat(400_000) }));
    fs.appendFileSync(channel(h.root), `${lines.join("\n")}\n`);
    await h.scan();
    const big = h.all().filter((m) => m.messageId?.startsWith("big-")).sort((a, b) => ((a.messageId ?? "") < (b.messageId ?? "") ? -1 : 1));
    expect(big.map((m) => queryContent(h.journal.db, m.key)?.raw?.toString("utf8"))).toEqual(lines);
  });

  it("reads CRLF lines, and an empty file and binary garbage never stop the scan", async () => {
    const h = await harness("kicklang");
    fs.appendFileSync(channel(h.root), `${envelope("crlf-1")}\r\n${envelope("crlf-2")}\r\n`);
    fs.writeFileSync(path.join(h.root, ".kicklang", "channels", "command", "empty.jsonl"), "");
    fs.writeFileSync(path.join(h.root, ".kicklang", "channels", "command", "garbage.jsonl"), Buffer.from([0, 255, 1, 2, 0x7b, 0x22, 10, 0xc3, 0x28, 10]));
    await h.scan();
    expect(h.all().filter((m) => m.messageId?.startsWith("crlf-")).map((m) => m.messageId).sort()).toEqual(["crlf-1", "crlf-2"]);
    expect(h.all().filter((m) => m.path?.endsWith("garbage.jsonl")).every((m) => m.status === "invalid")).toBe(true);
    expect(h.all().some((m) => m.path?.endsWith("empty.jsonl"))).toBe(false);
  });

  it("skips a multi-megabyte line with a problem and goes on reading after it", async () => {
    const h = await harness("kicklang");
    const huge = JSON.stringify({ id: "huge", content: "x".repeat(3 * 1024 * 1024) });
    fs.appendFileSync(channel(h.root), `${huge}\n${envelope("after-huge")}\n`);
    await h.scan();
    expect(h.all().filter((m) => m.messageId === "after-huge")).toHaveLength(1);
    expect(h.all().some((m) => m.messageId === "huge")).toBe(false);
    expect(h.all().some((m) => m.status === "invalid" && /larger than|limit/.test(m.problems.join(" ")))).toBe(true);
  });

  it("never journals a line twice, however often the file is scanned", async () => {
    const h = await harness("kicklang");
    const before = h.all().length;
    for (let i = 0; i < 3; i++) {
      fs.appendFileSync(channel(h.root), `${envelope(`again-${i}`)}\n`);
      await h.scan();
      await h.scan();
    }
    expect(h.all()).toHaveLength(before + 3);
  });

  it("never follows a link out of the root, nor a folder link back into the tree", async () => {
    const h = await harness("kicklang");
    const outside = temp("mailroom-outside-");
    fs.writeFileSync(path.join(outside, "secret.jsonl"), `${envelope("outside")}\n`);
    fs.symlinkSync(path.join(outside, "secret.jsonl"), path.join(h.root, ".kicklang", "channels", "command", "linked.jsonl"));
    fs.symlinkSync(outside, path.join(h.root, ".kicklang", "channels", "linked-dir"));
    fs.symlinkSync(path.join(h.root, ".kicklang", "channels"), path.join(h.root, ".kicklang", "channels", "command", "loop"));
    await h.scan();
    expect(h.all().some((m) => m.messageId === "outside")).toBe(false);
  });
});

describe("a shogun inbox", () => {
  it("that is not YAML (a writer without the lock caught mid-write) is listed with a problem, its messages kept as they were", async () => {
    const h = await harness("shogun");
    const inbox = path.join(h.root, "queue", "inbox", "gunshi.yaml");
    const good = fs.readFileSync(inbox, "utf8");
    const at = () => h.all().filter((m) => m.path === "queue/inbox/gunshi.yaml");
    const before = at().map((m) => [m.key, m.status]);
    expect(before).toHaveLength(2);
    fs.writeFileSync(inbox, "messages:\n- id: [unclosed\n");
    await h.scan();
    // Before, both went as trimmed, and came back "moved back" once the file was whole again.
    expect(at().filter((m) => m.status === "invalid")).toHaveLength(1);
    expect(at().filter((m) => m.status !== "invalid").map((m) => [m.key, m.status])).toEqual(before);
    fs.writeFileSync(inbox, good);
    await h.scan();
    expect(at().map((m) => [m.key, m.status])).toEqual(before);
    for (const [key] of before) expect(queryHistory(h.journal.db, key as string).map((e) => e.kind)).toEqual(["seen"]);
  });

  it("follows the queue/inbox link, even out of the root, and only that link", async () => {
    const h = await harness("shogun");
    const inInbox = (items: Harness["all"] extends () => infer T ? T : never) => items.filter((m) => m.path?.startsWith("queue/inbox/")).map((m) => m.messageId).sort();
    const direct = inInbox(h.all());
    expect(direct.length).toBeGreaterThan(5);

    const elsewhere = temp("mailroom-linked-inbox-");
    const inbox = path.join(h.root, "queue", "inbox");
    fs.cpSync(inbox, elsewhere, { recursive: true });
    fs.rmSync(inbox, { recursive: true });
    fs.symlinkSync(elsewhere, inbox);
    // A link inside the linked inbox is still never followed.
    const outside = temp("mailroom-outside-");
    fs.writeFileSync(path.join(outside, "evil.yaml"), "messages:\n- id: msg_evil\n  from: x\n  read: false\n  content: no\n");
    fs.symlinkSync(path.join(outside, "evil.yaml"), path.join(elsewhere, "evil.yaml"));

    const journal = openJournal(path.join(temp("mailroom-linked-data-"), "journal.db"));
    const [source] = (await discoverSources([h.root])).flatMap((s) => (s.entries ? [s.entries] : []));
    await new EntryIngest(journal.db).scan(source!);
    expect(inInbox(queryPage(journal.db, parseQuery("", VOCABULARY), 5000, null).items)).toEqual(direct);
  });
});
