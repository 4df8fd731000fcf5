import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

/** A blocking open of a FIFO returns only once a writer opens it: the test's writer comes this late. */
const WRITER_AFTER_S = 5;
import type { FoundFile } from "@/lib/protocols";
import { UNSTATTED } from "@/lib/protocols/fs-safe";
import { readFoundSync } from "./read";

let root: string;
let outside: string;
const rel = "queue/leader/a.mime";
const listed: FoundFile = { relPath: rel, kind: "file", size: UNSTATTED, mtimeMs: UNSTATTED, ino: UNSTATTED };

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-read-"));
  outside = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-outside-"));
  fs.mkdirSync(path.join(root, "queue", "leader"), { recursive: true });
  fs.writeFileSync(path.join(outside, "passwd"), "SECRET");
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

describe("readFoundSync", () => {
  it("does not block on a FIFO put where a listed file was: journaled as not a regular file, unread", () => {
    const fifo = path.join(root, ...rel.split("/"));
    execFileSync("mkfifo", [fifo]);
    // A blocking open would hold the thread until a writer came: one comes late, so a blocking
    // open shows as a return after it came rather than as a test that never ends.
    const writer = spawn("sh", ["-c", `sleep ${WRITER_AFTER_S}; printf leaked > '${fifo}'`], { stdio: "ignore" });
    const writerComes = Date.now() + WRITER_AFTER_S * 1000;
    try {
      const read = readFoundSync(root, listed);
      expect(Date.now() < writerComes, "returned before any writer opened the FIFO").toBe(true);
      expect(read?.bytes).toBeNull();
      expect(read?.found.kind).toBe("other");
    } finally {
      writer.kill();
    }
  });

  it("never reads a hard link to a file outside the tree, nor a symlink swapped in after the listing", () => {
    fs.linkSync(path.join(outside, "passwd"), path.join(root, ...rel.split("/")));
    expect(readFoundSync(root, listed)).toBeNull();
    fs.unlinkSync(path.join(root, ...rel.split("/")));
    fs.symlinkSync(path.join(outside, "passwd"), path.join(root, ...rel.split("/")));
    const read = readFoundSync(root, listed);
    expect(read?.bytes).toBeNull();
    expect(read?.found.kind).toBe("symlink");
  });
});
