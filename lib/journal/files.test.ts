// A source's journaled files read a page at a time (requests answered between pages), and a file
// event's few files read alone.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDb, type Db } from "./db";
import { entryFiles, entryFilesAt } from "./files";

let dir: string;
let db: Db;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-files-"));
  db = openDb(path.join(dir, "journal.sqlite"));
});
afterEach(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** `count` files of `source` as a fill leaves them, read by reader version 2. */
function journalFiles(source: string, count: number): void {
  const insert = db.prepare("INSERT INTO entry_files (source, path, size, mtime_ms, ino, consumed, head, reader) VALUES (?, ?, ?, ?, ?, ?, ?, 2)");
  db.transaction(() => {
    for (let i = 0; i < count; i++) insert.run(source, `queue/a/m_${String(i).padStart(5, "0")}.yaml`, 100 + i, 1_000 + i, 7_000 + i, 100 + i, Buffer.from(`head ${i}`));
  })();
}

describe("entryFiles", () => {
  it("reads every file of the source, none of another, a page of 2,000 at a time with a pause between pages", async () => {
    journalFiles("ws-ignite-yaml", 4_500);
    journalFiles("ws-shogun", 3);
    let pauses = 0;
    const files = await entryFiles(db, "ws-ignite-yaml", async () => void pauses++);
    expect(files.size).toBe(4_500);
    expect(pauses).toBe(2);
    expect(files.get("queue/a/m_04499.yaml")).toEqual({ size: 4_599, mtimeMs: 5_499, ino: 11_499, consumed: 4_599, head: Buffer.from("head 4499"), reader: 2 });
    expect([...files.keys()].some((p) => !p.startsWith("queue/a/"))).toBe(false);
  });

  it("ends without a pause when one page holds them all, and is empty for a source with no files", async () => {
    journalFiles("ws-shogun", 3);
    let pauses = 0;
    expect((await entryFiles(db, "ws-shogun", async () => void pauses++)).size).toBe(3);
    expect((await entryFiles(db, "ws-none", async () => void pauses++)).size).toBe(0);
    expect(pauses).toBe(0);
  });
});

describe("entryFilesAt", () => {
  it("reads only the files asked for that the journal has, of that source", () => {
    journalFiles("ws-ignite-yaml", 50);
    journalFiles("ws-other", 50);
    const files = entryFilesAt(db, "ws-ignite-yaml", ["queue/a/m_00007.yaml", "queue/a/new.yaml", "queue/a/m_00042.yaml"]);
    expect([...files.keys()].sort()).toEqual(["queue/a/m_00007.yaml", "queue/a/m_00042.yaml"]);
    expect(files.get("queue/a/m_00007.yaml")?.size).toBe(107);
    expect(entryFilesAt(db, "ws-ignite-yaml", []).size).toBe(0);
  });
});
