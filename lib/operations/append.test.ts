// appendLine on what a workspace may hold instead of a channel: only a regular file of one name
// is appended to; a link, a hard link or a pipe is refused at once, and nothing is written.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { tempDirs } from "@/lib/testing/temp-dirs";
import { appendLine, appendLineNow } from "./append";

const temp = tempDirs();

it("appends to a regular file, creating it and its folders", async () => {
  const dir = temp("mailroom-append-");
  const file = path.join(dir, "channels", "ops.jsonl");
  await appendLine(file, '{"id":"a"}\n', "channels/ops.jsonl");
  appendLineNow(file, '{"id":"b"}\n', "channels/ops.jsonl");
  expect(fs.readFileSync(file, "utf8")).toBe('{"id":"a"}\n{"id":"b"}\n');
});

it("refuses a link, a hard link and a pipe, writing nothing anywhere and never waiting", async () => {
  const dir = temp("mailroom-append-");
  const elsewhere = path.join(temp("mailroom-elsewhere-"), "bashrc");
  fs.writeFileSync(elsewhere, "# mine\n");
  fs.symlinkSync(elsewhere, path.join(dir, "linked.jsonl"));
  fs.linkSync(elsewhere, path.join(dir, "hard.jsonl"));
  execFileSync("mkfifo", [path.join(dir, "pipe.jsonl")]);
  await expect(appendLine(path.join(dir, "linked.jsonl"), "{}\n", "linked.jsonl")).rejects.toMatchObject({ code: "not_a_file" });
  await expect(appendLine(path.join(dir, "hard.jsonl"), "{}\n", "hard.jsonl")).rejects.toMatchObject({ status: 409, code: "not_a_file" });
  await expect(appendLine(path.join(dir, "pipe.jsonl"), "{}\n", "pipe.jsonl")).rejects.toMatchObject({ status: 409, code: "not_a_file" });
  expect(fs.readFileSync(elsewhere, "utf8")).toBe("# mine\n");
});

it("never glues a line onto a cut one: waits while it may still be written, ends it once it was left", async () => {
  const dir = temp("mailroom-append-");
  const file = path.join(dir, "ops.jsonl");
  fs.writeFileSync(file, '{"id":"a"}\n{"id":"b","ty');
  const writtenAt = fs.statSync(file).mtimeMs;
  // Changed a second ago and still cut after the looks again: an agent may be writing the rest of its line.
  await expect(appendLine(file, '{"id":"c"}\n', "ops.jsonl", writtenAt + 1_000)).rejects.toMatchObject({
    status: 409, code: "unfinished_line", message: expect.stringMatching(/^ops\.jsonl ends in a line still being written .*try again/),
  });
  expect(fs.readFileSync(file, "utf8")).toBe('{"id":"a"}\n{"id":"b","ty');
  // A writer that finishes its line while the append looks again: the append goes after it.
  const appending = appendLine(file, '{"id":"c"}\n', "ops.jsonl", writtenAt + 1_000);
  setTimeout(() => fs.appendFileSync(file, 'pe":"x"}\n'), 20);
  await appending;
  expect(fs.readFileSync(file, "utf8")).toBe('{"id":"a"}\n{"id":"b","type":"x"}\n{"id":"c"}\n');
  // A minute later a cut line was left cut: ended, so the reader loses that value only, not the new one too.
  fs.appendFileSync(file, '{"id":"d","ty');
  await appendLine(file, '{"id":"e"}\n', "ops.jsonl", fs.statSync(file).mtimeMs + 60_000);
  expect(fs.readFileSync(file, "utf8").split("\n").slice(-3)).toEqual(['{"id":"d","ty', '{"id":"e"}', ""]);
});
