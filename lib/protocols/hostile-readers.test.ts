// Files written to stall or exhaust a parser, fed to every wave-2 protocol's read side: each comes
// back with a `limit` or `parse` problem naming what it hit, never a throw, a hang or a stack
// overflow. Outcomes are asserted, not times (lib/ingest/hostile.test.ts does IGNITE v3).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fixturePath } from "@/lib/testing/fixtures";
import {
  binaryGarbage, deepBrackets, longLine, mergeKeyBomb, nestedAliasBomb, nestedYamlDeadLetter, scalarAliasBomb, shortLines, truncatedInString, wideAliasBomb,
} from "@/lib/testing/hostile-files";
import type { Entry, EntryProblem, FileRead } from "./entries";
import { makeEntry } from "./entry-kit";
import { read as readIgniteYaml } from "./ignite-yaml";
import { read as readKicklang, resolve as resolveKicklang } from "./kicklang";
import { read as readShogun } from "./shogun";
import { read as readWorkflow, readHeartbeat, readRegistry, readRegistryFile, resolve as resolveWorkflow } from "./workflow";
import { objectsOf } from "./write-kit";

const bytes = (text: string) => Buffer.from(text);
const fixture = (protocol: string, rel: string) => fs.readFileSync(fixturePath(protocol, rel), "utf8");
const has = (problems: readonly EntryProblem[], code: string, text: string) =>
  expect(problems).toContainEqual(expect.objectContaining({ code, message: expect.stringContaining(text) as string }));

/** YAML shapes and the limit each must name (YAML 1.2 core schema: `<<` is a key, so the merge bomb is 5,000 aliases of 1,000 values). */
const YAML_SHAPES: Array<[string, string, string]> = [
  ["nested aliases (a billion laughs)", nestedAliasBomb(), "more than 100 aliases expanded (limit)"],
  ["one list aliased 10,000 times", wideAliasBomb(), "more than 100 aliases expanded (limit)"],
  ["one big string aliased 99 times", scalarAliasBomb(), "aliases expand to more than 1,024 KiB of text (limit)"],
  ["5,000 `<<` merges of a 1,000-key map", mergeKeyBomb(), "more than 100,000 values (limit)"],
  ["200,000 nested flow brackets", `x: ${deepBrackets()}\n`, "nested more than 64 deep (limit)"],
  ["50,000 nested flow maps", `x: ${"{a: ".repeat(50_000)}1${"}".repeat(50_000)}\n`, "nested more than 64 deep (limit)"],
  ["500 nested block maps", Array.from({ length: 500 }, (_, i) => `${" ".repeat(i)}a:`).join("\n"), "nested more than 64 deep (limit)"],
  ["a million short lines", shortLines("- a"), "longer than 1,024 KiB, not parsed (limit)"],
  ["a 7 MiB line", longLine('x: "', '"\n'), "longer than 1,024 KiB, not parsed (limit)"],
];

const SHOGUN_FILES = ["queue/inbox/karo.yaml", "queue/shogun_to_karo.yaml", "queue/tasks/ashigaru1.yaml", "queue/reports/ashigaru1_report.yaml"];

describe("IGNITE v2 (YAML) files", () => {
  const one = (r: FileRead): Entry => {
    expect(r.entries).toHaveLength(1);
    return r.entries[0] as Entry;
  };

  it.each(YAML_SHAPES)("lists %s with the limit it hit", (_name, text, limit) => {
    for (const rel of ["queue/leader/task_1770261601512044.yaml", "queue/dead_letter/task_1770261601512044_dlq_1770263140.yaml"]) {
      has(one(readIgniteYaml(rel, bytes(text))).problems, "limit", `The file: ${limit}`);
    }
  });

  it("lists a dead letter whose original_message is a bomb with the limit, naming the original", () => {
    const letter = `type: dead_letter\noriginal_message: |\n${nestedAliasBomb().replace(/^/gm, "  ")}`;
    has(one(readIgniteYaml("queue/dead_letter/x_1_dlq_2.yaml", bytes(letter))).problems, "limit", "The original_message: more than 100 aliases expanded (limit)");
  });

  it("reads a dead letter nested 200 deep one level down, as a dead letter of the one inside it", () => {
    const e = one(readIgniteYaml("queue/dead_letter/dl_200_dlq_1795300000.yaml", bytes(nestedYamlDeadLetter(200))));
    expect(e.problems).toEqual([]);
    expect(e.links).toMatchObject([{ kind: "holds", targetId: "dl_199" }]);
  });

  it("recovers the fields of a file that does not parse in one pass, even past a line of 200,000 spaces and a U+2028 or \\r", () => {
    // The line-by-line recovery backtracked cubically on such a line: 4,000 spaces took 20 s.
    for (const end of ["\u2028", "\r"]) {
      const e = one(readIgniteYaml("queue/leader/task_1770261601512044.yaml", bytes(`type: task\nfrom: "leader"\n[\na:${" ".repeat(200_000)}${end}\nto: architect\n`)));
      has(e.problems, "parse", "The file is not valid YAML");
      expect(e).toMatchObject({ type: "task", from: "leader", to: ["architect"] });
    }
  });

  it("lists binary garbage and a file cut inside a string as not parsing, with the fields it could recover", () => {
    const garbage = one(readIgniteYaml("queue/leader/g_1.yaml", binaryGarbage()));
    expect(garbage.problems.map((p) => p.code)).toEqual(expect.arrayContaining(["encoding", "parse"]));
    const cut = truncatedInString(fixture("ignite-yaml", "workspace/queue/leader/escalation_1770263140.yaml"));
    const e = one(readIgniteYaml("queue/leader/escalation_1770263140.yaml", bytes(cut)));
    has(e.problems, "parse", "The file is not valid YAML (line");
  });
});

describe("shogun files (inbox, commands, tasks, reports)", () => {
  // Read as PyYAML reads them: `<<` merges, so the merge bomb hits the merge limit before the values'.
  const shogunShapes = YAML_SHAPES.map(([name, text, limit]): [string, string, string] => [name, text, name.includes("`<<` merges") ? "more than 10,000 keys copied by `<<` merges (limit)" : limit]);
  it.each(shogunShapes)("lists %s with the limit it hit, and no entries", (_name, text, limit) => {
    for (const rel of SHOGUN_FILES) {
      const r = readShogun(rel, bytes(text));
      expect(r.entries, rel).toEqual([]);
      has(r.problems, "limit", `The file: ${limit}`);
    }
  });

  it("lists binary garbage and a file cut inside a string as not parsing", () => {
    for (const rel of SHOGUN_FILES) {
      expect(readShogun(rel, binaryGarbage()).problems.map((p) => p.code), rel).toContain("parse");
      const r = readShogun(rel, bytes(truncatedInString('messages:\n- id: msg_1\n  content: "cmd_048を書いた"\n')));
      expect(r.entries, rel).toEqual([]);
      has(r.problems, "parse", "The file is not valid YAML (line");
    }
  });
});

/** JSON shapes for an appended stream (a channel, an ack file, a log): each with the problem it must show. */
const JSON_SHAPES: Array<[string, string, string, string]> = [
  ["200,000 nested brackets", `${deepBrackets()}\n`, "limit", "nested more than 64 deep (limit)"],
  ["100,000 nested objects", `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}\n`, "limit", "nested more than 64 deep (limit)"],
  ["a 7 MiB line", longLine('{"pad":"', '"}\n'), "limit", "larger than 1048576 bytes; it was not parsed"],
  ["a value cut off by the next one", '{"id":"m1","payload":"cut\n{"id":"m2"}\n', "parse", "is cut off; reading resumed after it"],
];

const STREAMS: Array<[string, (rel: string, b: Uint8Array) => FileRead, string]> = [
  ["workflow channel", readWorkflow, ".claude/workflow/wf1/channel/agents/agent_a.jsonl"],
  ["workflow broadcast", readWorkflow, ".claude/workflow/wf1/channel/broadcast.jsonl"],
  ["workflow ack file", readWorkflow, ".claude/workflow/wf1/channel/agents/agent_a.ack"],
  ["workflow log", readWorkflow, ".claude/workflow/wf1/logs/events.jsonl"],
  ["KickLang channel", readKicklang, ".kicklang/channels/report/status.jsonl"],
];

describe.each(STREAMS)("a %s", (_name, read, rel) => {
  it.each(JSON_SHAPES)("lists %s with its problem and reads on past it", (_shape, text, code, message) => {
    const r = read(rel, bytes(`${text}{"id":"after","msg_id":"m0"}\n`));
    has(r.problems, code, message);
    expect(r.entries.map((e) => e.locator)).toContain("after");
  });

  it("reads a million short lines 100,000 values at a time, saying where it stopped", () => {
    const line = '{"id":"m"}';
    const r = read(rel, bytes(shortLines(line)));
    expect(r.entries).toHaveLength(100_000);
    has(r.problems, "limit", "more than 100,000 values in one read");
    expect(r.consumed).toBe(100_000 * (line.length + 1));
  });

  it("lists binary garbage as not parsing; a value cut at the end is left for the writer to finish", () => {
    const garbage = read(rel, binaryGarbage());
    expect(garbage.problems.length).toBeGreaterThan(0);
    expect(garbage.problems.every((p) => p.code === "parse" || p.code === "limit")).toBe(true);
    const cut = truncatedInString('{"id":"m1","from":"a"}\n');
    expect(read(rel, bytes(`{"id":"m0"}\n${cut}`))).toMatchObject({ entries: [{ locator: "m0" }], problems: [], consumed: 12 });
  });
});

describe("a writer looking up an entry in a stream", () => {
  it("finds one past the 100,000 values a read stops at", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-hostile-stream-"));
    try {
      const file = path.join(dir, "status.jsonl");
      fs.writeFileSync(file, `${shortLines('{"id":"m"}', 150_000)}{"id":"last"}\n{"id":"being-wr`);
      const objects = await objectsOf(dir, "status.jsonl");
      expect(objects).toHaveLength(150_001);
      expect(objects.at(-1)).toEqual({ id: "last" });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("never reads one through a link, a hard link or a pipe: a 409 at once, not a hung request", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-hostile-stream-"));
    try {
      fs.writeFileSync(path.join(dir, "secret.txt"), '{"id":"secret"}\n');
      fs.symlinkSync(path.join(dir, "secret.txt"), path.join(dir, "linked.jsonl"));
      fs.linkSync(path.join(dir, "secret.txt"), path.join(dir, "hard.jsonl"));
      execFileSync("mkfifo", [path.join(dir, "pipe.jsonl")]);
      for (const name of ["linked.jsonl", "hard.jsonl", "pipe.jsonl"]) await expect(objectsOf(dir, name)).rejects.toMatchObject({ status: 409, code: "not_a_file" });
      expect(await objectsOf(dir, "missing.jsonl")).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("workflow state files (agents.json, heartbeats)", () => {
  it.each([...JSON_SHAPES, ["a million short lines", shortLines("{}"), "parse", "no `agents` object"] as const])(
    "gives no agents for agents.json of %s, with its problem",
    (_shape, text, code, message) => {
      has(readRegistryFile(bytes(text)).problems, code, message);
      expect(readRegistry(bytes(text))).toEqual([]);
    },
  );

  it("gives no agents and a problem for binary garbage or a cut agents.json", () => {
    expect(readRegistryFile(binaryGarbage()).problems.map((p) => p.code)).toEqual(["parse"]);
    expect(readRegistryFile(bytes(truncatedInString('{"agents":{"a":{}}}'))).problems).toEqual([{ code: "parse", message: "agents.json holds no complete JSON value." }]);
  });

  it("reads no time from a heartbeat file that is not one short timestamp", () => {
    for (const b of [bytes(deepBrackets()), bytes(shortLines("2026-01-01T00:00:00Z")), bytes(longLine("2026-01-01T00:00:00Z")), binaryGarbage(), bytes("2026-01-")]) {
      expect(readHeartbeat(b)).toBeNull();
    }
  });
});

describe("reply and correlation cycles through resolve()", () => {
  const envelope = (id: string, correlationId: string | null): Entry =>
    makeEntry({ kind: "message", locator: id, agent: "a", folder: "f", status: "sent", messageId: id, correlationId, inReplyTo: correlationId });

  it("KickLang: a self-reply and a two-message cycle share one thread each, flagged as loops", () => {
    const out = resolveKicklang([envelope("self", "self"), envelope("b", "a"), envelope("a", "b")]);
    expect(out.map((e) => e.threadKey)).toEqual(["self", "a", "a"]);
    has(out[0]?.problems ?? [], "rule:correlation", "The correlation chain loops (self → self)");
    has(out[1]?.problems ?? [], "rule:correlation", "The correlation chain loops (b → a → b)");
  });

  it("KickLang: a chain of 100,000 correlations is followed 64 hops, then named as a limit", () => {
    const chain = Array.from({ length: 100_000 }, (_, i) => envelope(`e${i}`, i === 0 ? null : `e${i - 1}`));
    const out = resolveKicklang(chain);
    expect(out[64]).toMatchObject({ threadKey: "e0", problems: [] });
    has(out[65]?.problems ?? [], "limit", "longer than 64 hops");
    has(out[99_999]?.problems ?? [], "limit", "The correlation chain from e99999: longer than 64 hops, followed no further (limit)");
  });

  it("workflow: an ack of itself and two acks of each other are orphans, not loops", () => {
    const ack = (id: string, target: string): Entry =>
      makeEntry({ kind: "ack", locator: id, agent: "a", folder: "channel", status: "received", messageId: id, links: [{ kind: "acks", targetId: target }] });
    const out = resolveWorkflow([ack("k1", "k1"), ack("k2", "k3"), ack("k3", "k2")]);
    for (const e of out) has(e.problems, "orphan-ack", "a message not found in this workflow");
  });
});
