import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { afterEach, describe, expect, it } from "vitest";
import { fixturePath } from "@/lib/testing/fixtures";
import { dumpInbox, loadInbox, type Inbox } from "./inbox-format";
import { read } from "./read";
import { planMark, planSend, run } from "./writer";

const dirs: string[] = [];
function workspace(): string {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-shogun-w-"));
  fs.cpSync(fixturePath("shogun"), ws, { recursive: true });
  dirs.push(ws);
  return ws;
}
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const KARO = "queue/inbox/karo.yaml";
const text = (ws: string, rel = KARO) => fs.readFileSync(path.join(ws, rel), "utf8");
const messages = (ws: string, rel = KARO) => (parse(text(ws, rel)) as { messages: Array<Record<string, unknown>> }).messages;
const entries = (ws: string, rel = KARO) => read(rel, fs.readFileSync(path.join(ws, rel))).entries;

function message(i: number, isRead: boolean): string {
  return `- content: m${i}\n  from: ashigaru1\n  id: msg_20260101_000000_${String(i).padStart(8, "0")}\n  read: ${isRead}\n  timestamp: '2026-01-01T00:00:00'\n  type: wake_up\n`;
}

describe("shogun send", () => {
  it("appends one message as inbox_write.sh writes it; the reader reads back exactly that", async () => {
    const ws = workspace();
    const before = messages(ws);
    const now = new Date(2026, 1, 6, 10, 52, 31);
    const plan = await planSend(ws, { to: "karo", from: "ashigaru3", type: "report_received", content: "任務完了。\nyes: no 'q' \\ 2026-01-01" }, now);
    expect(text(ws)).not.toContain("任務完了。\n");
    const result = await run(ws, plan);
    expect(result.ids[0]).toMatch(/^msg_20260206_105231_[0-9a-f]{8}$/);
    expect(text(ws)).toBe(plan.bytes);
    const after = messages(ws);
    expect(after.slice(0, -1)).toEqual(before);
    const last = after.at(-1) ?? {};
    expect(Object.keys(last)).toEqual(["content", "from", "id", "read", "timestamp", "type"]);
    expect(last).toEqual({ content: "任務完了。\nyes: no 'q' \\ 2026-01-01", from: "ashigaru3", id: result.ids[0], read: false, timestamp: "2026-02-06T10:52:31", type: "report_received" });
    expect(text(ws)).toContain("  timestamp: '2026-02-06T10:52:31'\n");
    const e = entries(ws).at(-1);
    expect(e).toMatchObject({ messageId: result.ids[0], from: "ashigaru3", type: "report_received", status: "unread", body: last.content });
    expect(fs.readdirSync(path.join(ws, "queue/inbox")).filter((n) => n.includes(".tmp") || n.endsWith(".lock.d"))).toEqual([]);
  });

  it("creates a missing inbox, and quotes strings YAML 1.1 readers (PyYAML) would take for something else", async () => {
    const ws = workspace();
    await run(ws, await planSend(ws, { to: "ashigaru9", from: "karo", type: "cmd_new", content: "on" }));
    expect(text(ws, "queue/inbox/ashigaru9.yaml")).toContain("- content: 'on'\n");
    expect(messages(ws, "queue/inbox/ashigaru9.yaml")).toHaveLength(1);
  });

  it("reads an inbox that reads empty again before it counts as empty (slim_yaml between its truncate and its write)", async () => {
    const ws = workspace();
    const full = text(ws);
    const count = messages(ws).length;
    const plan = await planSend(ws, { to: "karo", from: "shogun", type: "cmd_new", content: "x" });
    fs.writeFileSync(path.join(ws, KARO), "");
    setTimeout(() => fs.writeFileSync(path.join(ws, KARO), full), 25);
    await run(ws, { ...plan, op: { ...plan.op, expect: undefined } } as typeof plan);
    // Before, the send wrote the new message over the whole inbox.
    expect(messages(ws)).toHaveLength(count + 1);
  });

  it("past 50 messages keeps every unread one plus the newest 30 read, unread first", async () => {
    const ws = workspace();
    const list = Array.from({ length: 50 }, (_, i) => message(i, i % 3 !== 0)).join("");
    fs.writeFileSync(path.join(ws, KARO), `messages:\n${list}`);
    const plan = await planSend(ws, { to: "karo", from: "shogun", type: "cmd_new", content: "new" });
    await run(ws, plan);
    const ids = messages(ws).map((m) => String(m.content));
    const unread = Array.from({ length: 50 }, (_, i) => i).filter((i) => i % 3 === 0).map((i) => `m${i}`);
    const readIds = Array.from({ length: 50 }, (_, i) => i).filter((i) => i % 3 !== 0).map((i) => `m${i}`);
    expect(ids).toEqual([...unread, "new", ...readIds.slice(-30)]);
  });

  it("refuses bad fields with a 400 naming each, and writes nothing", async () => {
    const ws = workspace();
    const before = text(ws);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ to: "karo", from: "ash\nigaru", type: "x", content: "c" }, /from: .*line feed/],
      [{ to: "../etc", from: "shogun", type: "x", content: "c" }, /to: .*must not contain/],
      [{ to: "karo", from: "shogun", type: "x", content: "a".repeat(1024 * 1024 + 1) }, /content: is 1\.00 MiB; the limit is 1 MiB/],
      [{ to: "karo", from: "karo", type: "x", content: "c" }, /from: is the recipient/],
      [{ to: "karo", from: "shogun", content: "c" }, /type: is required/],
      // As inbox_write.sh: no empty content (it prints its usage and exits 1).
      [{ to: "karo", from: "shogun", type: "x", content: "" }, /content: is empty: inbox_write\.sh refuses a message without content/],
      [{ to: "karo", from: "shogun", type: "x", content: " \n " }, /content: is empty/],
    ];
    for (const [input, message] of cases) await expect(planSend(ws, input)).rejects.toThrow(message);
    await expect(planMark(ws, { agent: "karo", ids: ["a\rb"], read: true })).rejects.toThrow(/ids\.0: .*carriage return/);
    expect(text(ws)).toBe(before);
  });

  it("warns about a message to the shogun's inbox", async () => {
    const ws = workspace();
    const plan = await planSend(ws, { to: "shogun", from: "karo", type: "report_received", content: "done" });
    expect(plan.warnings.join()).toMatch(/dashboard\.md/);
  });
});

describe("shogun inbox bytes", () => {
  it("are inbox_write.sh's (PyYAML) bytes for the same data: sorted keys, flush list, quoted timestamps and YAML 1.1 words", () => {
    // Written by the real inbox_write.sh (PyYAML 6) for these messages.
    const real = "messages:\n- content: cmd_048を書いた。実行せよ。\n  from: shogun\n  id: msg_20260206_101502_3fa1c2d9\n  read: true\n  timestamp: '2026-02-06T10:15:02'\n  type: cmd_new\n- content: 'on'\n  from: gunshi\n  id: msg_20261126_112239_1807703e\n  read: false\n  timestamp: '2026-11-26T11:22:39'\n  type: wake_up\n";
    const inbox = loadInbox(real);
    expect("messages" in inbox).toBe(true);
    expect(dumpInbox(inbox as Inbox)).toBe(real);
    for (const name of ["karo", "ashigaru1", "ashigaru2", "gunshi"]) {
      const fixture = fs.readFileSync(fixturePath("shogun", `queue/inbox/${name}.yaml`), "utf8");
      expect(dumpInbox(loadInbox(fixture) as Inbox), name).toBe(fixture);
    }
  });
});

describe("shogun inbox text PyYAML reads", () => {
  it("double-quotes, with PyYAML's escapes, text PyYAML refuses raw (tab, DEL, C1, line separators, BOM), and quotes = and <<", () => {
    const contents = ["col1\tcol2", "a\x7fb", "x\u2028y", "\x85x", "=", "<<", "\ufeffbom", "bell\x07", "nc\uffff"];
    const dumped = dumpInbox({ rest: {}, messages: contents.map((content, i) => ({ content, id: `m${i}`, read: false })) });
    // PyYAML 6's own dump of these is the same but for the two line separators, which it single-quotes
    // across a line break ('x\u2028    y'); its safe_load reads both forms back as the same text.
    const lines = dumped.split("\n").filter((l) => l.startsWith("- content: "));
    expect(lines).toEqual(['"col1\\tcol2"', '"a\\x7Fb"', '"x\\Ly"', '"\\Nx"', "'='", "'<<'", '"\\uFEFFbom"', '"bell\\a"', '"nc\\uFFFF"'].map((v) => `- content: ${v}`));
    // No character PyYAML's reader refuses is left raw.
    expect(dumped).not.toMatch(/[\t\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]/);
    const back = loadInbox(dumped);
    expect("messages" in back && back.messages.map((m) => m.content)).toEqual(contents);
  });

  it("keeps another agent's text as PyYAML wrote it when a mark rewrites the inbox (1e3 stays text, not 1000)", async () => {
    const ws = workspace();
    // As PyYAML dumps these strings: plain, since it reads them back as text.
    fs.writeFileSync(path.join(ws, KARO), "messages:\n- content: 1e3\n  id: a\n  read: false\n- content: 0o17\n  id: b\n  read: false\n- content: \"col1\\tcol2\"\n  id: c\n  read: false\n- content: hi\n  id: d\n  read: false\n");
    expect(entries(ws).map((e) => e.body)).toEqual(expect.arrayContaining([expect.stringContaining("1e3")]));
    await run(ws, await planMark(ws, { agent: "karo", ids: ["d"], read: true }));
    const after = loadInbox(text(ws));
    expect("messages" in after && after.messages.map((m) => m.content)).toEqual(["1e3", "0o17", "col1\tcol2", "hi"]);
    expect(text(ws)).toContain('content: "col1\\tcol2"');
  });
});

describe("shogun mark read / unread", () => {
  it("flips read on many ids in place and leaves every other byte of meaning alone", async () => {
    const ws = workspace();
    const before = messages(ws);
    const ids = before.filter((m) => m.read === false).map((m) => String(m.id));
    await run(ws, await planMark(ws, { agent: "karo", ids, read: true }));
    expect(messages(ws)).toEqual(before.map((m) => ({ ...m, read: true })));
    await run(ws, await planMark(ws, { agent: "karo", ids: ids.slice(0, 1), read: false }));
    expect(entries(ws).filter((e) => e.status === "unread").map((e) => e.messageId)).toEqual(ids.slice(0, 1));
  });

  it("leaves a done message done when marking it read (the later variant's status), and makes it pending when unread", async () => {
    const ws = workspace();
    fs.writeFileSync(path.join(ws, KARO), "messages:\n- content: a\n  id: m1\n  status: done\n- content: b\n  id: m2\n  status: pending\n");
    await run(ws, await planMark(ws, { agent: "karo", ids: ["m1", "m2"], read: true }));
    expect(messages(ws).map((m) => m.status)).toEqual(["done", "seen"]);
    await run(ws, await planMark(ws, { agent: "karo", ids: ["m1"], read: false }));
    expect(messages(ws).map((m) => m.status)).toEqual(["pending", "seen"]);
  });

  it("is a 409 when an id to mark is gone, or when the file changed since the caller read it", async () => {
    const ws = workspace();
    const id = String(messages(ws)[0]?.id);
    const plan = await planMark(ws, { agent: "karo", ids: [id], read: false });
    fs.writeFileSync(path.join(ws, KARO), `messages:\n${message(1, true)}`);
    await expect(run(ws, plan)).rejects.toMatchObject({ status: 409, code: "entry_gone" });
    await expect(planMark(ws, { agent: "karo", ids: ["msg_x"], read: true })).rejects.toMatchObject({ status: 409 });
    const size = fs.statSync(path.join(ws, KARO)).size;
    const stale = await planSend(ws, { to: "karo", from: "shogun", type: "cmd_new", content: "x", expect: { size: size + 1 } });
    await expect(run(ws, stale)).rejects.toMatchObject({ status: 409, code: "changed" });
    expect(messages(ws)).toHaveLength(1);
  });

  it("says why an inbox it will not rewrite is refused: broken YAML may be a write in progress, an item that is no message is not", async () => {
    const ws = workspace();
    fs.writeFileSync(path.join(ws, KARO), `messages:\n${message(1, false)}- just a line\n`);
    const send = () => planSend(ws, { to: "karo", from: "shogun", type: "cmd_new", content: "x" }).then((p) => run(ws, p));
    await expect(send()).rejects.toMatchObject({
      status: 409, code: "unreadable",
      message: "queue/inbox/karo.yaml cannot be rewritten: The inbox's `messages:` item 2 is not a mapping. Mailroom rewrites only an inbox whose every item is a message (it keeps every item): fix or remove that first. Nothing was changed.",
    });
    fs.writeFileSync(path.join(ws, KARO), "messages:\n- id: [unclosed\n");
    await expect(send()).rejects.toMatchObject({ status: 409, message: expect.stringContaining("An agent may be writing it: try again. Nothing was changed.") });
  });
});

describe("shogun inbox locks", () => {
  it("removes a .lock.d a Mailroom left when it was killed (its process is gone), and writes", async () => {
    const ws = workspace();
    const lockDir = path.join(ws, `${KARO}.lock.d`);
    fs.mkdirSync(lockDir);
    // Beyond any pid_max: no process has it.
    fs.writeFileSync(path.join(lockDir, "mailroom-99999999-0badf00d"), "");
    await run(ws, await planSend(ws, { to: "karo", from: "shogun", type: "cmd_new", content: "after the crash" }));
    expect(messages(ws).some((m) => m.content === "after the crash")).toBe(true);
    expect(fs.existsSync(lockDir)).toBe(false);
    // A former Mailroom of this very pid (a container restarted as pid 1): not this process's marker, so not held.
    fs.mkdirSync(lockDir);
    fs.writeFileSync(path.join(lockDir, `mailroom-${process.pid}-0badf00d`), "");
    await run(ws, await planSend(ws, { to: "karo", from: "shogun", type: "cmd_new", content: "after the restart" }));
    expect(messages(ws).some((m) => m.content === "after the restart")).toBe(true);
    expect(fs.existsSync(lockDir)).toBe(false);
  });

  it("waits for another writer's .lock.d, and gives a clear error (leaving it alone) after 5 s", async () => {
    const ws = workspace();
    const lockDir = path.join(ws, `${KARO}.lock.d`);
    fs.mkdirSync(lockDir);
    const plan = await planSend(ws, { to: "karo", from: "shogun", type: "cmd_new", content: "x" });
    await expect(run(ws, plan)).rejects.toThrow(/stayed locked by another writer for 5 s/);
    expect(fs.existsSync(lockDir)).toBe(true);
    const old = new Date(Date.now() - 120_000);
    fs.utimesSync(lockDir, old, old);
    await expect(run(ws, plan)).rejects.toThrow(/locked for 1\d\d s .*a writer probably died/);
    const pending = run(ws, plan);
    setTimeout(() => fs.rmdirSync(lockDir), 500);
    await pending;
    expect(messages(ws).at(-1)?.content).toBe("x");
  });

  it("never locks through a link or on a pipe: a 409 at once, nothing made outside, the inbox as it was", async () => {
    const ws = workspace();
    const before = text(ws);
    const lockFile = path.join(ws, `${KARO}.lock`);
    const outside = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-outside-")), "made-by-mailroom");
    dirs.push(path.dirname(outside));
    fs.rmSync(lockFile, { force: true });
    fs.symlinkSync(outside, lockFile);
    const plan = await planSend(ws, { to: "karo", from: "shogun", type: "cmd_new", content: "x" });
    await expect(run(ws, plan)).rejects.toMatchObject({ status: 409, code: "not_a_file" });
    expect(fs.existsSync(outside)).toBe(false);
    fs.rmSync(lockFile);
    execFileSync("mkfifo", [lockFile]);
    const started = Date.now();
    await expect(run(ws, plan)).rejects.toMatchObject({ status: 409, code: "not_a_file" });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(text(ws)).toBe(before);
    // The lock folder was given back: the agents' own writers are not held up.
    expect(fs.existsSync(path.join(ws, `${KARO}.lock.d`))).toBe(false);
  });

  it("waits for the flock another process holds, and a holder that dies releases it", async () => {
    const ws = workspace();
    const lockFile = path.join(ws, `${KARO}.lock`);
    // A parent that holds the flock the way withFlock does, then is killed without cleaning up.
    const holder = spawn(process.execPath, ["-e", `
      const c = require("node:child_process").spawn("flock", ["-x", ${JSON.stringify(lockFile)}, "sh", "-c", "echo locked; read _"], { stdio: ["pipe", "pipe", "inherit"] });
      c.stdout.on("data", () => process.stdout.write("held\\n"));`], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise<void>((resolve) => holder.stdout.once("data", () => resolve()));
    const plan = await planSend(ws, { to: "karo", from: "shogun", type: "cmd_new", content: "after crash" });
    let done = false;
    const pending = run(ws, plan).then(() => (done = true));
    await new Promise((r) => setTimeout(r, 1000));
    expect(done).toBe(false);
    holder.kill("SIGKILL");
    await pending;
    expect(messages(ws).at(-1)?.content).toBe("after crash");
  });
});
