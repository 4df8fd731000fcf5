import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveInsideRoot } from "./paths";

let root: string;
let outside: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-paths-"));
  outside = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-outside-"));
  fs.mkdirSync(path.join(root, "queue", "leader"), { recursive: true });
  fs.writeFileSync(path.join(root, "queue", "leader", "a.mime"), "x");
  fs.writeFileSync(path.join(outside, "secret.txt"), "secret");
  fs.symlinkSync(path.join(outside, "secret.txt"), path.join(root, "queue", "leader", "link.mime"));
  fs.symlinkSync(outside, path.join(root, "queue", "escape"));
});
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

describe("resolveInsideRoot", () => {
  it("resolves a plain file inside the root", async () => {
    expect(await resolveInsideRoot(root, "queue/leader/a.mime")).toBe(fs.realpathSync(path.join(root, "queue/leader/a.mime")));
  });

  it.each([
    ["..", "../etc/passwd"],
    ["a nested ..", "queue/../../etc/passwd"],
    ["an absolute path", "/etc/passwd"],
    ["an empty path", ""],
    ["a NUL byte", "queue/leader/a.mime\0"],
    ["a symlinked file", "queue/leader/link.mime"],
    ["a path through a symlinked folder", "queue/escape/secret.txt"],
    ["a missing file", "queue/leader/missing.mime"],
    ["a folder", "queue/leader"],
  ])("refuses %s", async (_what, relPath) => {
    expect(await resolveInsideRoot(root, relPath)).toBeNull();
  });
});
