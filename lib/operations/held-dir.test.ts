// A folder swapped for a link to somewhere else between a write's check (resolveForWrite) and the
// write, as an agent racing Mailroom could do (renameat2 RENAME_EXCHANGE in a loop): nothing is
// written, moved or removed outside the workspace, at either moment of the race.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { tempDirs } from "@/lib/testing/temp-dirs";
import { appendLine } from "./append";
import { createFile, moveFile, resolveForWrite } from "./fs";
import { replaceFile } from "./replace";

const temp = tempDirs();
afterEach(() => vi.restoreAllMocks());

/** A workspace with .ignite/queue/architect/, and a folder outside it the link will point to. */
function setup() {
  const root = temp("mailroom-held-root-");
  const outside = temp("mailroom-held-outside-");
  const queue = path.join(root, ".ignite", "queue", "architect");
  fs.mkdirSync(queue, { recursive: true });
  /** The swap: the real folder moved aside, a link to `outside` in its place. */
  const swap = () => {
    fs.renameSync(queue, `${queue}-real`);
    fs.symlinkSync(outside, queue);
  };
  return { root, outside, queue, swap };
}

/** setup(), with a message to move from architect/ to leader/, and a file of its name outside. */
async function moveSetup() {
  const s = setup();
  fs.writeFileSync(path.join(s.queue, "task.mime"), "message");
  fs.writeFileSync(path.join(s.outside, "task.mime"), "theirs");
  const source = await resolveForWrite(s.root, ".ignite/queue/architect/task.mime");
  const target = await resolveForWrite(s.root, ".ignite/queue/leader/task.mime");
  return { ...s, source, target };
}

describe("a folder swapped for a link after the write's check", () => {
  it("refuses a new file, an append and a replace, writing nothing outside", async () => {
    const { root, outside, swap } = setup();
    const abs = await resolveForWrite(root, ".ignite/queue/architect/authorized_keys");
    swap();
    await expect(createFile(abs, "ssh-ed25519 AAAA attacker", "authorized_keys")).rejects.toMatchObject({ status: 409, code: "moved" });
    await expect(appendLine(abs, "{}\n", "authorized_keys")).rejects.toMatchObject({ status: 409, code: "moved" });
    await expect(replaceFile(abs, "x")).rejects.toMatchObject({ status: 409, code: "moved" });
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it("never removes a file of the same name outside when a move's source folder is swapped", async () => {
    const { outside, queue, swap, source, target } = await moveSetup();
    swap();
    await expect(moveFile(source, target, "leader/task.mime")).rejects.toMatchObject({ status: 409 });
    expect(fs.readFileSync(path.join(outside, "task.mime"), "utf8")).toBe("theirs");
    expect(fs.readFileSync(path.join(`${queue}-real`, "task.mime"), "utf8")).toBe("message");
  });
});

describe("a parent folder swapped for a link before missing folders are made", () => {
  it("makes no folder outside: a move to a new agent's queue and an append to a new channel are refused", async () => {
    const { root, outside, swap } = setup();
    fs.writeFileSync(path.join(root, ".ignite", "queue", "task.mime"), "message");
    fs.mkdirSync(path.join(root, ".ignite", "queue", "architect", "channel"));
    const source = await resolveForWrite(root, ".ignite/queue/task.mime");
    const target = await resolveForWrite(root, ".ignite/queue/architect/newagent/sub/task.mime");
    const channel = await resolveForWrite(root, ".ignite/queue/architect/channel/agents/ops.jsonl");
    swap();
    fs.mkdirSync(path.join(outside, "channel"));
    await expect(moveFile(source, target, "newagent/sub/task.mime")).rejects.toMatchObject({ status: 409, code: "moved" });
    await expect(appendLine(channel, "{}\n", "channel/agents/ops.jsonl")).rejects.toMatchObject({ status: 409, code: "moved" });
    expect(fs.readdirSync(outside)).toEqual(["channel"]);
    expect(fs.readdirSync(path.join(outside, "channel"))).toEqual([]);
    expect(fs.readFileSync(source, "utf8")).toBe("message");
  });
});

describe("a folder swapped for a link while the write runs", () => {
  it("removes a move's source from the folder it held, not through the link: the message is in one place", async () => {
    const { outside, queue, swap, source, target } = await moveSetup();
    const link = fs.promises.link;
    vi.spyOn(fs.promises, "link").mockImplementation(async (from, to) => {
      await link(from, to);
      swap();
    });
    await moveFile(source, target, "leader/task.mime");
    expect(fs.readFileSync(target, "utf8")).toBe("message");
    expect(fs.existsSync(path.join(`${queue}-real`, "task.mime"))).toBe(false);
    expect(fs.readFileSync(path.join(outside, "task.mime"), "utf8")).toBe("theirs");
  });


  it("finishes in the folder it checked: the new file is there, nothing outside", async () => {
    const { root, outside, queue, swap } = setup();
    const abs = await resolveForWrite(root, ".ignite/queue/architect/task.mime");
    const link = fs.promises.link;
    vi.spyOn(fs.promises, "link").mockImplementation(async (from, to) => {
      swap();
      return link(from, to);
    });
    await createFile(abs, "message", "architect/task.mime");
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(fs.readFileSync(path.join(`${queue}-real`, "task.mime"), "utf8")).toBe("message");
  });
});
