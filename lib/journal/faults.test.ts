// Which errors are journal faults: SQLite's own, from real files, and the journal folder's; never
// the same file-system error from a workspace file (an action's or a scan's), which is that file's.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { openDb } from "./db";
import { journalFaultKind } from "./faults";

const dirs: string[] = [];
const undo: (() => void)[] = [];
const temp = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-fault-kind-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const u of undo.splice(0).reverse()) u();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error("nothing thrown");
}

function chattr(flag: "+i" | "-i", target: string): boolean {
  try {
    execFileSync("chattr", [flag, target], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
}

describe("journalFaultKind", () => {
  it("names SQLite's faults from real files: not a database, read-only, locked", () => {
    const dir = temp();
    const garbage = path.join(dir, "garbage.sqlite");
    fs.writeFileSync(garbage, Buffer.alloc(4096, 0x41));
    expect(journalFaultKind(thrown(() => openDb(garbage)))).toBe("corrupt");

    const file = path.join(dir, "journal.sqlite");
    openDb(file).close();
    const readOnly = new Database(file, { readonly: true });
    expect(journalFaultKind(thrown(() => readOnly.prepare("UPDATE meta SET value = value").run()))).toBe("readonly");
    readOnly.close();

    const holder = new Database(file);
    holder.exec("BEGIN IMMEDIATE");
    const other = new Database(file, { timeout: 0 });
    expect(journalFaultKind(thrown(() => other.prepare("UPDATE meta SET value = value").run()))).toBe("busy");
    other.close();
    holder.exec("ROLLBACK");
    holder.close();
  });

  it("does not take a workspace file's file-system error for the journal's", () => {
    const dir = temp();
    expect(journalFaultKind(thrown(() => fs.readFileSync(path.join(dir, "missing.mime"))))).toBeNull();
    expect(journalFaultKind(thrown(() => fs.readdirSync(path.join(dir, "missing"))))).toBeNull();
    const file = path.join(dir, "task.mime");
    fs.writeFileSync(file, "x");
    if (!chattr("+i", file)) return; // a file system without chattr: the read-only case is then not real here
    undo.push(() => chattr("-i", file));
    const denied = thrown(() => fs.writeFileSync(file, "y"));
    expect((denied as NodeJS.ErrnoException).code).toBe("EPERM");
    expect(journalFaultKind(denied)).toBeNull();
  });

  it("names a journal folder that cannot be made (the same error, from the journal's folder)", () => {
    const dir = temp();
    if (!chattr("+i", dir)) return;
    undo.push(() => chattr("-i", dir));
    expect(journalFaultKind(thrown(() => openDb(path.join(dir, "data", "journal.sqlite"))))).toBe("readonly");
  });
});
