import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/server/errors";
import { createFile, moveFile, moveWithContent, resolveForWrite, takeBack } from "./fs";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-ops-"));
  fs.mkdirSync(path.join(dir, "a"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const p = (...parts: string[]) => path.join(dir, ...parts);
const leftovers = (d: string) => fs.readdirSync(d).filter((n) => n.includes(".tmp-"));

async function status(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (err) {
    if (err instanceof ApiError) return err.status;
    throw err;
  }
}

describe("createFile", () => {
  it("writes a new file with mode 0600 and no temp file left", async () => {
    await createFile(p("a", "x.mime"), "hello", "a/x.mime");
    expect(fs.readFileSync(p("a", "x.mime"), "utf8")).toBe("hello");
    expect(fs.statSync(p("a", "x.mime")).mode & 0o777).toBe(0o600);
    expect(leftovers(p("a"))).toEqual([]);
  });

  it("never overwrites: an existing target is a 409 and keeps its content", async () => {
    fs.writeFileSync(p("a", "x.mime"), "original");
    const err = await createFile(p("a", "x.mime"), "new", "a/x.mime").catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 409, code: "target_exists" });
    expect(fs.readFileSync(p("a", "x.mime"), "utf8")).toBe("original");
    expect(leftovers(p("a"))).toEqual([]);
  });
});

describe("moves", () => {
  it("moves a file into a new folder", async () => {
    fs.writeFileSync(p("a", "x.mime"), "m");
    await moveFile(p("a", "x.mime"), p("b", "c", "x.mime"), "b/c/x.mime");
    expect(fs.existsSync(p("a", "x.mime"))).toBe(false);
    expect(fs.readFileSync(p("b", "c", "x.mime"), "utf8")).toBe("m");
  });

  it("is a 409 when the source vanished, and changes nothing", async () => {
    expect(await status(moveFile(p("a", "gone.mime"), p("b", "gone.mime"), "b/gone.mime"))).toBe(409);
    expect(fs.existsSync(p("b", "gone.mime"))).toBe(false);
  });

  /** Run `monitor` once, just before the move's second step (the source moved aside, then removed) takes the source's name. */
  async function withMonitorBetweenSteps(monitor: () => void, move: () => Promise<void>): Promise<unknown> {
    const rename = fs.promises.rename;
    let fired = false;
    const spy = vi.spyOn(fs.promises, "rename").mockImplementation(async (from, to) => {
      // Named through the held folder (/proc/self/fd/N/x.yaml).
      if (!fired && String(from).endsWith("/x.yaml")) {
        fired = true;
        monitor();
      }
      return rename(from, to);
    });
    try {
      return await move().then(() => null, (err: unknown) => err);
    } finally {
      spy.mockRestore();
    }
  }

  it("keeps another writer's file that took the target's name between its two steps (IGNITE v2's monitor retrying the same message)", async () => {
    fs.mkdirSync(p("a", "processed"));
    fs.writeFileSync(p("a", "processed", "x.yaml"), "monitor's");
    // The monitor's `mv processed/x.yaml x.yaml` lands after Mailroom wrote x.yaml and before it removes processed/x.yaml.
    const err = await withMonitorBetweenSteps(
      () => fs.renameSync(p("a", "processed", "x.yaml"), p("a", "x.yaml")),
      () => moveWithContent(p("a", "processed", "x.yaml"), p("a", "x.yaml"), "mailroom's", "a/x.yaml"),
    );
    expect(err).toMatchObject({ status: 409, message: expect.stringContaining("someone else moved the file to x.yaml") as string });
    // Before, the undo removed x.yaml (the monitor's by then): the message was in neither folder.
    expect(fs.readFileSync(p("a", "x.yaml"), "utf8")).toBe("monitor's");
    expect(fs.readdirSync(p("a")).filter((n) => n.startsWith("."))).toEqual([]);
  });

  it("never removes a file that took the source's name between its two steps (the monitor picking up the copy just written)", async () => {
    fs.mkdirSync(p("a", "processed"));
    fs.writeFileSync(p("a", "processed", "x.yaml"), "processed once");
    // A retry writes x.yaml; the monitor's `mv x.yaml processed/x.yaml` takes it before Mailroom removes processed/x.yaml.
    const err = await withMonitorBetweenSteps(
      () => fs.renameSync(p("a", "x.yaml"), p("a", "processed", "x.yaml")),
      () => moveWithContent(p("a", "processed", "x.yaml"), p("a", "x.yaml"), "retried", "a/x.yaml"),
    );
    expect(err).toMatchObject({ status: 409, code: "source_gone" });
    // Before, the source's name was removed whatever it held: the monitor's copy, so the message was in neither folder.
    expect(fs.readFileSync(p("a", "processed", "x.yaml"), "utf8")).toBe("retried");
    expect(fs.existsSync(p("a", "x.yaml"))).toBe(false);
    expect([...fs.readdirSync(p("a")), ...fs.readdirSync(p("a", "processed"))].filter((n) => n.startsWith("."))).toEqual([]);
  });

  it("takes back only the file it made: its own by inode, never one that took the name since", async () => {
    const made = await createFile(p("a", "x.mime"), "ours", "a/x.mime");
    expect(await takeBack(p("a", "x.mime"), made)).toBe("ours");
    expect(fs.existsSync(p("a", "x.mime"))).toBe(false);
    const again = await createFile(p("a", "y.mime"), "ours", "a/y.mime");
    fs.writeFileSync(p("a", "other"), "theirs");
    fs.renameSync(p("a", "other"), p("a", "y.mime"));
    expect(await takeBack(p("a", "y.mime"), again)).toBe("theirs");
    expect(fs.readFileSync(p("a", "y.mime"), "utf8")).toBe("theirs");
    expect(await takeBack(p("a", "gone.mime"), again)).toBe("gone");
    expect(fs.readdirSync(p("a")).sort()).toEqual(["y.mime"]);
  });

  it("lets exactly one of twenty concurrent moves of one file win", async () => {
    fs.writeFileSync(p("a", "x.mime"), "m");
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => status(moveWithContent(p("a", "x.mime"), p(`t${i % 2}`, "x.mime"), `edited ${i}`, "t/x.mime"))),
    );
    expect(results.filter((s) => s === 200)).toHaveLength(1);
    expect(results.filter((s) => s === 409)).toHaveLength(19);
    const copies = ["t0", "t1"].filter((t) => fs.existsSync(p(t, "x.mime")));
    expect(copies).toHaveLength(1);
    expect(fs.existsSync(p("a", "x.mime"))).toBe(false);
  });
});

describe("resolveForWrite", () => {
  it("resolves inside the root", async () => {
    expect(await resolveForWrite(dir, "a/new.mime")).toBe(path.join(fs.realpathSync(dir), "a", "new.mime"));
  });

  it.each(["../x.mime", "/etc/x", "a/../../x", "a//x", "a/./x"])("refuses %s", async (rel) => {
    expect(await status(resolveForWrite(dir, rel))).toBe(400);
  });

  it("refuses a path through a symlinked folder", async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-out-"));
    fs.symlinkSync(outside, p("link"));
    expect(await status(resolveForWrite(dir, "link/x.mime"))).toBe(400);
    fs.rmSync(outside, { recursive: true, force: true });
  });
});
