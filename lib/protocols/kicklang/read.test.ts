import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { fixturePath } from "@/lib/testing/fixtures";
import type { Entry } from "@/lib/protocols/entries";
import { CHANNELS_DIR, channelToPath, pathToChannel } from "./channels";
import { placeKicklang } from "./paths";
import { read } from "./read";
import { resolve } from "./statuses";

const FILES = ["command/dispatch", "report/status", "report/artifact", "alert/error", "query/context"].map((c) => `${CHANNELS_DIR}/${c}.jsonl`);
function readFixture(rel: string): Entry[] {
  const bytes = fs.readFileSync(fixturePath("kicklang", rel));
  const r = read(rel, bytes);
  expect(r.problems).toEqual([]);
  expect(r.consumed).toBe(bytes.length);
  return r.entries;
}
const codes = (e: Entry | undefined) => e?.problems.map((p) => p.code);
const TASK_003 = "d130c0ae-e8ef-4937-9851-2321c99322a5";
const TASK_004 = "3f380315-931a-4370-99a4-f63284838c44";
const QUERY = "949b2d72-43f3-437a-936f-d66c3e02a61a";

describe("KickLang channel names and paths", () => {
  it("maps any Unicode channel name to a safe path and back, one to one", () => {
    expect(channelToPath("⫻report/status")).toBe("report/status.jsonl");
    expect(channelToPath("⫻report/進捗")).toBe("report/%E9%80%B2%E6%8D%97.jsonl");
    expect(pathToChannel("report/%E9%80%B2%E6%8D%97.jsonl")).toBe("⫻report/進捗");
    for (const c of ["⫻report/進捗", "⫻alert/..", "⫻a/.hidden", "⫻Kick La Metta/x y", "⫻a/b.tmp", "⫻q/x.lock", "⫻a/%2E", "⫻ü/ü/ü"]) {
      const p = channelToPath(c)!;
      expect(p, c).toMatch(/^(?:[A-Za-z0-9_-]|%[0-9A-F]{2})+(?:\/(?:[A-Za-z0-9_-]|%[0-9A-F]{2})+)*\.jsonl$/);
      expect(pathToChannel(p), c).toBe(c);
      expect(placeKicklang(`${CHANNELS_DIR}/${p}`), c).toEqual({ agent: c, folder: "channel", role: "channel" });
    }
    for (const c of ["report/status", "⫻", "⫻a//b", "⫻a/b\nc", `⫻a/${"進".repeat(100)}`]) expect(channelToPath(c), c).toBeNull();
    // Only the canonical form of a name is its file: no second path for one channel.
    for (const p of ["report/%e9%80%b2.jsonl", "report/%73tatus.jsonl", "report/%FF.jsonl", "report/.status.jsonl", "report/../x.jsonl", "report/status.json", "report/a.b.jsonl"]) {
      expect(pathToChannel(p), p).toBeNull();
    }
    expect(placeKicklang(`${CHANNELS_DIR}/report/status.jsonl.tmp1`)).toBeNull();
    expect(placeKicklang("channels/report/status.jsonl")).toBeNull();
  });
});

describe("KickLang read on the fixture", () => {
  it("reads each envelope with its channel, correlation (either key) and request status", () => {
    const all = FILES.flatMap(readFixture);
    expect(all.map((e) => [e.locator.slice(0, 8), e.agent, e.type, e.status, e.correlationId?.slice(0, 8) ?? null])).toEqual([
      ["d130c0ae", "⫻command/dispatch", "Command", "unanswered", null],
      ["3f380315", "⫻command/dispatch", "Command", "unanswered", null],
      ["ab56b990", "⫻command/dispatch", "Command", "unanswered", null],
      ["17946e13", "⫻report/status", "Info", "sent", "d130c0ae"],
      ["1eb0348b", "⫻report/status", "Info", "sent", "d130c0ae"],
      ["df6ad32c", "⫻report/status", "Info", "sent", null],
      ["80acd39f", "⫻report/artifact", "Info", "sent", "d130c0ae"],
      ["fedb0412", "⫻report/artifact", "Info", "sent", "3f380315"], // camelCase correlationId
      ["c539c2f8", "⫻alert/error", "Alert", "sent", null],
      ["949b2d72", "⫻query/context", "Query", "unanswered", null],
      ["c9e0406b", "⫻query/context", "Info", "sent", "949b2d72"],
    ]);
    expect(all[0]).toMatchObject({
      kind: "message", messageId: TASK_003, from: "Orchestrator", to: ["WePlan"], date: "2025-12-16T15:40:00.118Z",
      dueAt: "2025-12-16T15:45:00.118Z", folder: "channel", body: "⫻command/dispatch:task/001\nTask ID: task_003\nContext: Draft the iteration plan for the monitoring module.",
    });
    expect(all[9]).toMatchObject({ to: ["Kick La Metta"] });
    expect(all[7]?.links).toEqual([{ kind: "replies", targetId: TASK_004 }]);
  });

  it("shows the rules broken: WePlan on ⫻command/dispatch, task_004's Accepted without correlation; the rest clean", () => {
    const all = FILES.flatMap(readFixture);
    const broken = all.filter((e) => e.problems.length > 0).map((e) => [e.locator.slice(0, 8), codes(e)]);
    expect(broken).toEqual([["ab56b990", ["rule:role-authorization"]], ["df6ad32c", ["rule:correlation"]]]);
  });

  it("resolve: answered requests, threads by correlation root", () => {
    const all = resolve(FILES.flatMap(readFixture));
    const by = new Map(all.map((e) => [e.locator.slice(0, 8), e]));
    expect([...by].map(([id, e]) => [id, e.status, e.threadKey?.slice(0, 8), e.dueAt === null])).toEqual([
      ["d130c0ae", "answered", "d130c0ae", true],
      ["3f380315", "answered", "3f380315", true],
      ["ab56b990", "unanswered", "ab56b990", false],
      ["17946e13", "sent", "d130c0ae", true],
      ["1eb0348b", "sent", "d130c0ae", true],
      ["df6ad32c", "sent", "df6ad32c", true],
      ["80acd39f", "sent", "d130c0ae", true],
      ["fedb0412", "sent", "3f380315", true],
      ["c539c2f8", "sent", "c539c2f8", true],
      ["949b2d72", "answered", QUERY.slice(0, 8), true],
      ["c9e0406b", "sent", QUERY.slice(0, 8), true],
    ]);
    expect(all.filter((e) => e.problems.length > 0)).toHaveLength(2);
  });
});

describe("KickLang read on other envelopes", () => {
  const rel = `${CHANNELS_DIR}/alert/violation.jsonl`;
  it("flags JSON content (upstream's one publisher), a channel other than its file's, and a correlation to no envelope", () => {
    const line = (o: object) => `${JSON.stringify(o)}\n`;
    const text =
      line({ id: "k1", timestamp: 1765899600000, sender: "Guard", receiver: "Broadcast", type: "Alert", channel: "⫻alert/violation", content: '{"rule":2}' }) +
      line({ id: "k2", timestamp: "2025-12-16T16:00:00Z", sender: "Guard", receiver: "Orchestrator", type: "Info", channel: "⫻report/status", content: "⫻report/status:x/1\nok", correlation_id: "gone" });
    const entries = read(rel, Buffer.from(text)).entries;
    expect(entries.map(codes)).toEqual([["rule:space-format"], ["rule:channel-file"]]);
    expect(entries[0]?.date).toBe("2025-12-16T15:40:00.000Z");
    const resolved = resolve(entries);
    expect(resolved.map(codes)).toEqual([["rule:space-format"], ["rule:channel-file", "rule:correlation"]]);
    expect(resolved[1]?.threadKey).toBe("gone");
  });

  it("reads an append from the previous offset; an envelope without id is located by its offset", () => {
    const text = '{"timestamp":"2025-12-16T16:00:00Z","sender":"A","type":"Alert","channel":"⫻alert/violation","content":"⫻alert/violation:a/1"}\n{"id":"k3","type":"Query"';
    const first = read(rel, Buffer.from(text));
    expect(first.entries.map((e) => e.locator)).toEqual(["0"]);
    const rest = Buffer.from(text).subarray(first.consumed);
    const more = Buffer.concat([rest, Buffer.from(',"channel":"⫻alert/violation","content":"⫻alert/violation:a/2"}\n')]);
    expect(read(rel, more, { offset: first.consumed }).entries.map((e) => [e.locator, e.status, e.span?.start])).toEqual([["k3", "unanswered", first.consumed]]);
  });

  it("survives a correlation loop", () => {
    const loop = '{"id":"a","type":"Info","correlation_id":"b","channel":"⫻alert/violation"}\n{"id":"b","type":"Info","correlationId":"a","channel":"⫻alert/violation"}\n';
    expect(resolve(read(rel, Buffer.from(loop)).entries).map((e) => e.threadKey).sort()).toHaveLength(2);
  });
});
