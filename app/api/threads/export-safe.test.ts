// The zip export reads each file through the one safe open (lib/protocols/safe-open.ts): a file
// replaced by a hard link to a file outside the tree is left out, never its bytes put in the zip;
// a note says so in its place.
import fs from "node:fs";
import path from "node:path";
import { unzipSync } from "fflate";
import { afterEach, beforeEach, expect, it } from "vitest";
import { MAX_FILE_BYTES } from "@/lib/protocols";
import { ignite } from "@/lib/protocols/fixtures";
import { openIngestedWorkspace, type IngestedWorkspace } from "@/lib/testing/ingested-workspace";
import { GET as exportThread } from "./[id]/export/route";

const { buildMessage } = ignite;

let w: IngestedWorkspace;
beforeEach(async () => {
  w = await openIngestedWorkspace();
});
afterEach(() => w.close());

it("leaves out a file that became a hard link to a file outside the tree", async () => {
  // Over 8 MiB: the journal keeps only its head, so the export reads the file itself.
  const file = path.join(w.ws, ".ignite", "queue", "leader", "big_report_1.mime");
  const message = (body: string) =>
    buildMessage({ from: "coordinator", to: ["leader"], type: "big_report", body, threadId: "thr_big_1", date: new Date("2026-11-20T10:00:00Z") });
  fs.writeFileSync(file, message("x: y\n".repeat(MAX_FILE_BYTES / 5 + 1000)));
  await w.scanNow();
  const download = async () => {
    const res = await exportThread(new Request("http://x/export?format=zip"), { params: Promise.resolve({ id: "thr_big_1" }) });
    expect(res.status).toBe(200);
    return unzipSync(new Uint8Array(await res.arrayBuffer()));
  };
  expect(Object.keys(await download())).toEqual(["thread-thr_big_1/1-big_report_1.mime"]);

  const outside = path.join(path.dirname(w.ws), "secret.mime");
  fs.writeFileSync(outside, message("secret: SECRET OUTSIDE THE ROOT\n".repeat(MAX_FILE_BYTES / 30)));
  fs.unlinkSync(file);
  fs.linkSync(outside, file);
  await w.scanNow();
  const files = await download();
  for (const bytes of Object.values(files)) expect(Buffer.from(bytes).includes("SECRET OUTSIDE")).toBe(false);
  // In its place, a note that says why its bytes are not there (no silent gap in the numbering).
  const names = Object.keys(files);
  expect(names).toEqual([expect.stringMatching(/^thread-thr_big_1\/1-.+\.missing\.txt$/)]);
  expect(Buffer.from(files[names[0] ?? ""] ?? []).toString()).toContain("Mailroom did not keep all of its bytes");
});

it("exports a thread whose messages are dated before 1980 or after 2099, which a zip entry cannot say (it was a 500)", async () => {
  for (const [i, date] of ["1970-01-21T10:31:39Z", "2150-01-01T00:00:00Z"].entries()) {
    const message = buildMessage({ from: "coordinator", to: ["leader"], type: "old_report", body: "x: y\n", threadId: "thr_dates", date: new Date(date) });
    fs.writeFileSync(path.join(w.ws, ".ignite", "queue", "leader", `old_report_${i}.mime`), message);
  }
  await w.scanNow();
  const res = await exportThread(new Request("http://x/export?format=zip"), { params: Promise.resolve({ id: "thr_dates" }) });
  expect(res.status).toBe(200);
  expect(Object.keys(unzipSync(new Uint8Array(await res.arrayBuffer())))).toHaveLength(2);
});
