// strace's read calls summed by path: joined across another thread's interruption, and (where
// strace may attach here) what a real process read, by file.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { bytesByPath, readsDuring, straceAvailable } from "./read-attribution";

const CHANNEL = "/w/.kicklang/channels/report/status.jsonl";
const JOURNAL = "/d/journal-1.sqlite";

it("sums the bytes of each read call by its descriptor's path, a call resumed after another thread's included", () => {
  const trace = [
    `32254 pread64(25<${JOURNAL}>, ""..., 16384, 17645568) = 16384`,
    `32263 pread64(30<${CHANNEL}>,  <unfinished ...>`,
    `32261 pread64(30<${CHANNEL}>,  <unfinished ...>`,
    `32254 read(29<anon_inode:inotify>, ""..., 4096) = 32`,
    `32263 <... pread64 resumed>""..., 64, 0) = 64`,
    `32261 <... pread64 resumed>""..., 16059, 6354909) = 16059`,
    `32262 pread64(30<${CHANNEL}>, ""..., 64, 0) = 64`,
    `32262 read(31<${JOURNAL}>, 0x7f, 100) = -1 EAGAIN (Resource temporarily unavailable)`,
    "32262 +++ exited with 0 +++",
  ].join("\n");
  expect(Object.fromEntries(bytesByPath(trace))).toEqual({ [JOURNAL]: 16384, [CHANNEL]: 64 + 16059 + 64, "anon_inode:inotify": 32 });
});

let dir = "";
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

it.skipIf(!straceAvailable())("says which file a running process read, and how much", async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-strace-"));
  const file = path.join(dir, "channel.jsonl");
  fs.writeFileSync(file, "x".repeat(1000));
  // Reads the whole file every 20 ms until told to stop.
  const reader = spawn(process.execPath, ["-e", `setInterval(() => require("fs").readFileSync(${JSON.stringify(file)}), 20)`], { stdio: "ignore" });
  try {
    await new Promise((r) => setTimeout(r, 300));
    const reads = await readsDuring(reader.pid ?? 0, path.join(dir, "trace"), () => new Promise((r) => setTimeout(r, 500)));
    if (reads === null) return; // strace may not attach here (no ptrace): nothing to check
    // At least a few whole reads in 0.5 s, each 1,000 bytes (plus the 0-byte read that ends each).
    expect(reads.get(file) ?? 0).toBeGreaterThanOrEqual(3000);
    expect((reads.get(file) ?? 0) % 1000).toBe(0);
  } finally {
    reader.kill();
  }
});
