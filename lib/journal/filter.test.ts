// protocol: and source: on a real journal holding messages of two protocols from three sources.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Protocol } from "@/lib/model";
import { parseQuery } from "@/lib/query";
import { CATALOGS, VOCABULARY } from "@/lib/protocols";
import { fileRecord } from "@/lib/testing/parsed";
import { openTempJournal, type TempJournal } from "@/lib/testing/temp-journal";
import { compileFilter } from "./filter";
import { queryChanges, queryPage } from "./queries";

let journal: TempJournal;

/** Message keys start with the file name: `ai1`, `as1`, … */
function record(name: string, source: string, protocol: Protocol, ino: number): void {
  const rec = fileRecord(`queue/leader/${name}.mime`, { messageId: `<${name}@x>` }, { mtimeMs: ino, size: 1, ino });
  journal.writer.record({ ...rec, source, protocol });
}

const names = (q: string) =>
  queryPage(journal.db, parseQuery(q, VOCABULARY), 50, null)
    .items.map((m) => m.key.split("-")[0])
    .sort();

beforeEach(() => {
  journal = openTempJournal(() => Date.parse("2026-11-20T01:00:00Z"));
  record("ai1", "app-ignite", "ignite", 1);
  record("ai2", "app-ignite", "ignite", 2);
  record("as1", "app-shogun", "shogun", 3);
  record("di1", "docs-ignite", "ignite", 4);
});
afterEach(() => journal.close());

describe("protocol: and source:", () => {
  it("finds the messages of one protocol, by its id or an alias, and the others when negated", () => {
    expect(names("protocol:shogun")).toEqual(["as1"]);
    expect(names("protocol:ignite")).toEqual(["ai1", "ai2", "di1"]);
    expect(names("protocol:v3")).toEqual(["ai1", "ai2", "di1"]);
    expect(names("-protocol:ignite")).toEqual(["as1"]);
    expect(names("protocol:kicklang")).toEqual([]);
    expect(names("protocol:ignite -protocol:ignite")).toEqual([]);
  });

  it("finds the messages of one source exactly, or of several by a wildcard, as agent: does", () => {
    expect(names("source:app-ignite")).toEqual(["ai1", "ai2"]);
    expect(names("source:app")).toEqual([]);
    expect(names("source:App-ignite")).toEqual([]);
    expect(names("source:app-*")).toEqual(["ai1", "ai2", "as1"]);
    expect(names("source:*-ignite")).toEqual(["ai1", "ai2", "di1"]);
    expect(names("-source:app-*")).toEqual(["di1"]);
  });

  it("combines with each other and with the other fields", () => {
    expect(names("protocol:ignite source:app-*")).toEqual(["ai1", "ai2"]);
    expect(names("protocol:ignite -source:docs-ignite mid:ai1@x")).toEqual(["ai1"]);
  });

  it("filters a poll's changes the same way", () => {
    const { seq } = queryPage(journal.db, [], 50, null);
    record("as2", "app-shogun", "shogun", 5);
    record("ai3", "app-ignite", "ignite", 6);
    const poll = queryChanges(journal.db, parseQuery("protocol:shogun", VOCABULARY), seq, 50);
    expect(poll.items.map((m) => m.key.split("-")[0])).toEqual(["as2"]);
    expect((poll.removed ?? []).map((k) => k.split("-")[0])).toEqual(["ai3"]);
  });
});

describe("is:dead", () => {
  it("finds the status each catalog says its dead letters carry, and no other", () => {
    const filter = compileFilter(parseQuery("is:dead", VOCABULARY));
    const said = new Set(CATALOGS.flatMap((c) => (c.deadLetterStatus === undefined ? [] : [c.deadLetterStatus])));
    expect(filter.params).toEqual([...said]);
    expect(filter.where).toBe(`(status IN (${[...said].map(() => "?").join(", ")}))`);
  });
});

describe("thread:", () => {
  it("finds the messages that name the thread, not the replies in it by inheritance, exactly or by a wildcard, through the thread index", () => {
    const rec = (name: string, over: { threadId?: string; inReplyTo?: string }, ino: number) =>
      journal.writer.record(fileRecord(`queue/leader/${name}.mime`, { messageId: `<${name}@x>`, ...over }, { mtimeMs: ino, size: 1, ino }));
    rec("t1", { threadId: "thr_1" }, 10);
    rec("t2", { threadId: "thr_1" }, 11);
    rec("r1", { inReplyTo: "<t1@x>" }, 12);
    rec("u1", { threadId: "thr_10" }, 13);
    expect(names("thread:thr_1")).toEqual(["t1", "t2"]);
    expect(names("thread:thr_1*")).toEqual(["t1", "t2", "u1"]);
    expect(names("-thread:thr_1")).toEqual(["ai1", "ai2", "as1", "di1", "r1", "u1"]);
    expect(names("thread:thr_2")).toEqual([]);
    const { where, params } = compileFilter(parseQuery("thread:thr_1", VOCABULARY), { fullText: false });
    const plan = journal.db.prepare(`EXPLAIN QUERY PLAN SELECT key FROM messages WHERE ${where}`).all(...params) as { detail: string }[];
    expect(plan.map((p) => p.detail).join("; ")).toContain("INDEX messages_thread_key (thread_key=?)");
  });
});
