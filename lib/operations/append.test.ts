// appendLine on what a workspace may hold instead of a channel: only a regular file of one name
// is appended to; a link, a hard link or a pipe is refused at once, and nothing is written.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { tempDirs } from "@/lib/testing/temp-dirs";
import { appendLine } from "./append";

const temp = tempDirs();

it("appends to a regular file, creating it and its folders", () => {
  const dir = temp("mailroom-append-");
  const file = path.join(dir, "channels", "ops.jsonl");
  appendLine(file, '{"id":"a"}\n', "channels/ops.jsonl");
  appendLine(file, '{"id":"b"}\n', "channels/ops.jsonl");
  expect(fs.readFileSync(file, "utf8")).toBe('{"id":"a"}\n{"id":"b"}\n');
});

it("refuses a link, a hard link and a pipe, writing nothing anywhere and never waiting", () => {
  const dir = temp("mailroom-append-");
  const elsewhere = path.join(temp("mailroom-elsewhere-"), "bashrc");
  fs.writeFileSync(elsewhere, "# mine\n");
  fs.symlinkSync(elsewhere, path.join(dir, "linked.jsonl"));
  fs.linkSync(elsewhere, path.join(dir, "hard.jsonl"));
  execFileSync("mkfifo", [path.join(dir, "pipe.jsonl")]);
  expect(() => appendLine(path.join(dir, "linked.jsonl"), "{}\n", "linked.jsonl")).toThrow(expect.objectContaining({ code: "not_a_file" }));
  expect(() => appendLine(path.join(dir, "hard.jsonl"), "{}\n", "hard.jsonl")).toThrow(expect.objectContaining({ status: 409, code: "not_a_file" }));
  expect(() => appendLine(path.join(dir, "pipe.jsonl"), "{}\n", "pipe.jsonl")).toThrow(expect.objectContaining({ status: 409, code: "not_a_file" }));
  expect(fs.readFileSync(elsewhere, "utf8")).toBe("# mine\n");
});

it("never glues a line onto a cut one: waits while it may still be written, ends it once it was left", () => {
  const dir = temp("mailroom-append-");
  const file = path.join(dir, "ops.jsonl");
  fs.writeFileSync(file, '{"id":"a"}\n{"id":"b","ty');
  const writtenAt = fs.statSync(file).mtimeMs;
  // Changed a second ago: an agent may be writing the rest of its line.
  expect(() => appendLine(file, '{"id":"c"}\n', "ops.jsonl", writtenAt + 1_000)).toThrow(
    expect.objectContaining({ status: 409, code: "unfinished_line", message: expect.stringMatching(/^ops\.jsonl ends in a line still being written .*try again/) }),
  );
  expect(fs.readFileSync(file, "utf8")).toBe('{"id":"a"}\n{"id":"b","ty');
  // A minute later it was left cut: ended, so the reader loses that value only, not the new one too.
  appendLine(file, '{"id":"c"}\n', "ops.jsonl", writtenAt + 60_000);
  expect(fs.readFileSync(file, "utf8").split("\n")).toEqual(['{"id":"a"}', '{"id":"b","ty', '{"id":"c"}', ""]);
});
