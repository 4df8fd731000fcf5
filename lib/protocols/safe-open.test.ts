import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/** A blocking open of a FIFO returns only once a writer opens it: the test's writer comes this late. */
const WRITER_AFTER_S = 5;
import { openInsideRoot, openInsideRootSync, readInsideRoot, RefusedFile, streamInsideRoot } from "./safe-open";

let root: string;
let outside: string;
const secret = "root:x:0:0:SECRET\n";

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-safe-open-"));
  outside = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-outside-"));
  fs.mkdirSync(path.join(root, "queue", "leader"), { recursive: true });
  fs.writeFileSync(path.join(root, "queue", "leader", "a.mime"), "hello");
  fs.writeFileSync(path.join(outside, "passwd"), secret);
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof RefusedFile) return err.reason;
    throw err;
  }
  return "opened";
}

async function refusalOf(p: Promise<unknown>): Promise<string> {
  return p.then(
    () => "opened",
    (err: unknown) => {
      if (err instanceof RefusedFile) return err.reason;
      throw err;
    },
  );
}

describe("openInsideRoot", () => {
  it("opens a plain file inside the root, and reads and streams it from the one descriptor", async () => {
    const { fd, stats } = openInsideRootSync(root, "queue/leader/a.mime");
    fs.closeSync(fd);
    expect(stats.size).toBe(5);
    expect((await readInsideRoot(root, "queue/leader/a.mime")).bytes.toString()).toBe("hello");
    const { size, stream } = await streamInsideRoot(root, "queue/leader/a.mime");
    expect(size).toBe(5);
    expect(Buffer.from(await new Response(stream).arrayBuffer()).toString()).toBe("hello");
  });

  it("refuses a FIFO at once instead of waiting for a writer", async () => {
    const fifo = path.join(root, "queue", "leader", "pipe.mime");
    execFileSync("mkfifo", [fifo]);
    // Without O_NONBLOCK the open would wait for a writer: this one comes late, so a blocking open
    // shows as a return after it came instead of hanging the test for good.
    const writer = spawn("sh", ["-c", `sleep ${WRITER_AFTER_S}; printf leaked > '${fifo}'`], { stdio: "ignore" });
    const writerComes = Date.now() + WRITER_AFTER_S * 1000;
    try {
      expect(refusal(() => openInsideRootSync(root, "queue/leader/pipe.mime"))).toBe("not_a_file");
      expect(await refusalOf(openInsideRoot(root, "queue/leader/pipe.mime"))).toBe("not_a_file");
      expect(Date.now() < writerComes, "returned before any writer opened the FIFO").toBe(true);
    } finally {
      writer.kill();
    }
  });

  it("refuses a symlink, even to a file inside the root", async () => {
    fs.symlinkSync(path.join(outside, "passwd"), path.join(root, "queue", "leader", "out.mime"));
    fs.symlinkSync("a.mime", path.join(root, "queue", "leader", "in.mime"));
    expect(refusal(() => openInsideRootSync(root, "queue/leader/out.mime"))).toBe("symlink");
    expect(refusal(() => openInsideRootSync(root, "queue/leader/in.mime"))).toBe("symlink");
    expect(await refusalOf(openInsideRoot(root, "queue/leader/out.mime"))).toBe("symlink");
  });

  it("refuses a file reached through a folder linked out of the root", async () => {
    fs.mkdirSync(path.join(outside, "leader"));
    fs.writeFileSync(path.join(outside, "leader", "b.mime"), secret);
    fs.symlinkSync(path.join(outside, "leader"), path.join(root, "queue", "linked"));
    expect(refusal(() => openInsideRootSync(root, "queue/linked/b.mime"))).toBe("outside_root");
    expect(await refusalOf(readInsideRoot(root, "queue/linked/b.mime"))).toBe("outside_root");
  });

  it("refuses a hard link to a file outside the tree (its link count)", async () => {
    fs.linkSync(path.join(outside, "passwd"), path.join(root, "queue", "leader", "hard.mime"));
    expect(refusal(() => openInsideRootSync(root, "queue/leader/hard.mime"))).toBe("hard_linked");
    expect(await refusalOf(streamInsideRoot(root, "queue/leader/hard.mime"))).toBe("hard_linked");
  });

  it("refuses a file on another filesystem than the root's (its device)", () => {
    // /proc is its own filesystem, whose files stat as regular files with one link.
    expect(fs.statSync("/proc/version").isFile()).toBe(true);
    expect(refusal(() => openInsideRootSync("/", "proc/version"))).toBe("other_device");
  });

  it("refuses paths that leave the root, and says a missing file is missing", () => {
    for (const bad of ["../x", "/etc/passwd", "queue/../../x", "", "queue//a.mime", "a\0b"]) {
      expect(refusal(() => openInsideRootSync(root, bad))).toBe("bad_path");
    }
    expect(refusal(() => openInsideRootSync(root, "queue/leader/none.mime"))).toBe("missing");
  });
});

describe("a refusal from another copy of this module", () => {
  it("is a RefusedFile to this one (the production build bundles ingest apart from the routes)", async () => {
    vi.resetModules();
    const other = await import("./safe-open");
    expect(other.RefusedFile).not.toBe(RefusedFile);
    const theirs = new other.RefusedFile("symlink", "logs/a.log", "logs/a.log is a link");
    expect(theirs instanceof RefusedFile).toBe(true);
    expect(new RefusedFile("missing", "a", "a is gone") instanceof other.RefusedFile).toBe(true);
    // Only a refusal: an error that merely says it is one is not.
    expect(Object.assign(new Error("x"), { name: "RefusedFile", reason: "symlink" }) instanceof RefusedFile).toBe(false);
    expect((null as unknown as object) instanceof RefusedFile).toBe(false);
  });
});
