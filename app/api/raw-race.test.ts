// /raw against a file swapped for a symlink to a file outside the root, over and over, while it is
// requested: the check and the read are one open (lib/protocols/safe-open.ts), so the outside
// bytes are never served. The file is over 8 MiB: the journal keeps only its head, so every
// download reads the file itself.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { listMessages } from "@/lib/journal";
import { MAX_FILE_BYTES } from "@/lib/protocols";
import { ignite } from "@/lib/protocols/fixtures";
import { openIngestedWorkspace, type IngestedWorkspace } from "@/lib/testing/ingested-workspace";
import { GET as raw } from "./messages/[key]/raw/route";

const { buildMessage } = ignite;

let w: IngestedWorkspace;
beforeEach(async () => {
  w = await openIngestedWorkspace();
});
afterEach(() => w.close());

/** Swaps `target` between the real file and a symlink to `outside` until killed (a process of its own, so truly meanwhile). */
const SWAPPER = `
const fs = require("node:fs");
const [target, spare, outside] = process.argv.slice(1);
const pause = new Int32Array(new SharedArrayBuffer(4));
process.stdout.write("swapping");
for (;;) {
  try {
    fs.renameSync(target, spare);
    fs.symlinkSync(outside, target);
    fs.unlinkSync(target);
    fs.renameSync(spare, target);
    Atomics.wait(pause, 0, 0, 1); // the real file a while too, or it is hardly ever served
  } catch {}
}`;

it("never serves the bytes of a file outside the root, however the file is swapped meanwhile", async () => {
  const file = path.join(w.ws, ".ignite", "queue", "leader", "big_report_1.mime");
  const body = "x: y\n".repeat(MAX_FILE_BYTES / 5 + 1000);
  fs.writeFileSync(file, buildMessage({ from: "coordinator", to: ["leader"], type: "big_report", body, date: new Date("2026-11-20T10:00:00Z") }));
  const size = fs.statSync(file).size;
  await w.scanNow();
  const key = listMessages({ q: "type:big_report" }).items[0]?.key ?? "";
  const outside = path.join(path.dirname(w.ws), "passwd");
  fs.writeFileSync(outside, "root:x:0:0:SECRET OUTSIDE THE ROOT\n");

  const swapper = spawn(process.execPath, ["-e", SWAPPER, file, path.join(w.ws, "spare.mime"), outside], { stdio: ["ignore", "pipe", "ignore"] });
  const seen = { inside: 0, outside: 0, refused: 0 };
  try {
    // Requests start once the swapping has: on a loaded machine the swapper's own start took longer
    // than 400 requests, which then never met a link. At least 400, and on until both sides were met.
    await new Promise<void>((resolve, reject) => {
      swapper.stdout.once("data", () => resolve());
      swapper.once("exit", (code) => reject(new Error(`the swapper exited (${code}) before it swapped`)));
    });
    for (let i = 0; i < 400 || (i < 4000 && (seen.inside === 0 || seen.refused === 0)); i++) {
      const res = await raw(new Request("http://x"), { params: Promise.resolve({ key }) });
      if (res.status !== 200) {
        seen.refused++;
        continue;
      }
      const bytes = Buffer.from(await res.arrayBuffer());
      if (bytes.includes("SECRET OUTSIDE")) seen.outside++;
      else if (bytes.length === size) seen.inside++;
    }
  } finally {
    swapper.kill();
  }
  expect(seen.outside).toBe(0);
  // The race was run: the file was served whole between swaps, and refused while it was a link.
  expect(seen.inside).toBeGreaterThan(0);
  expect(seen.refused).toBeGreaterThan(0);
}, 120_000);
