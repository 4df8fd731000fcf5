// The --stream bench's channel stays valid KickLang: pre-filled to its size, then appended to one
// whole line per write, every envelope read by KickLang's own read side without a problem.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { kicklangReadSide } from "@/lib/protocols/kicklang";
import { readTree } from "@/lib/testing/read-tree";
import { appendAtRate, ChannelWriter, prefillChannel } from "./stream-channel";

let root = "";
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

it("pre-fills the channel to the size asked for, in threads of valid reports", async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "bench-stream-"));
  const filled = prefillChannel(root, 3 << 20, 2048);
  expect(fs.statSync(filled.file).size).toBe(filled.bytes);
  expect(filled.bytes).toBeGreaterThanOrEqual(3 << 20);
  expect(filled.bytes).toBeLessThan((3 << 20) + 4096);
  const lines = fs.readFileSync(filled.file, "utf8").split("\n").slice(0, -1);
  // Each line is about the size asked for: the message count follows from it.
  expect(Math.abs(filled.bytes / lines.length - 2048)).toBeLessThan(200);
  const { problems, entries } = await readTree(kicklangReadSide, root);
  expect(problems).toEqual([]);
  expect(entries).toHaveLength(filled.messages);
  expect(filled.messages).toBe(lines.length + filled.requests.length);
});

it("appends one whole envelope per write, each read as a report in its dispatch's thread, from the old end on", async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "bench-stream-"));
  const filled = prefillChannel(root, 200_000, 1024);
  const writer = new ChannelWriter(filled.file, filled.requests);
  expect(await appendAtRate(writer, 500, 0.2)).toBe(100);
  writer.close();
  const bytes = fs.readFileSync(filled.file);
  expect(bytes.length).toBe(filled.bytes + writer.bytes);
  // Only the appended bytes, read from the offset the pre-fill ended at: as ingest reads an append-only file.
  const appended = kicklangReadSide.read(".kicklang/channels/report/status.jsonl", bytes.subarray(filled.bytes), { offset: filled.bytes });
  expect(appended.problems).toEqual([]);
  expect(appended.consumed).toBe(bytes.length);
  expect(appended.entries.map((e) => e.messageId)).toEqual([...writer.writtenAt.keys()]);
  expect(appended.entries.every((e) => e.problems.length === 0 && filled.requests.includes(e.correlationId ?? ""))).toBe(true);
});
