// What the journal keeps of a file too big to keep whole, and what the message view and the
// download make of it once the file is gone.
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { MAX_FILE_BYTES } from "@/lib/protocols";
import { ignite } from "@/lib/protocols/fixtures";
import { openIngestedWorkspace, type IngestedWorkspace } from "@/lib/testing/ingested-workspace";
import { getMessage, getRawMessage, listMessages } from "./index";

const { buildMessage } = ignite;

let w: IngestedWorkspace;
beforeEach(async () => {
  w = await openIngestedWorkspace();
});
afterEach(() => w.close());

it("keeps the headers of a file over 8 MiB, so they outlive it; its body and download go with the file", async () => {
  const file = path.join(w.ws, ".ignite", "queue", "leader", "big_report_1.mime");
  const body = "x: y\n".repeat(MAX_FILE_BYTES / 5 + 1000);
  fs.writeFileSync(file, buildMessage({ from: "coordinator", to: ["leader"], type: "big_report", body, date: new Date("2026-11-20T10:00:00Z") }));
  await w.scanNow();
  const key = listMessages({ q: "type:big_report" }).items[0]?.key ?? "";

  // While the file is there, its headers show (from the head the journal kept), and it is the download.
  const onDisk = await getMessage(key);
  expect(onDisk?.headers).toContainEqual(["X-IGNITE-Type", "big_report"]);
  expect((await getRawMessage(key))?.bytes.length).toBe(fs.statSync(file).size);

  fs.unlinkSync(file);
  await w.scanNow();
  const gone = await getMessage(key);
  expect(gone).toMatchObject({ path: null, body: "" });
  expect(gone?.headers).toContainEqual(["X-IGNITE-Type", "big_report"]);
  expect(gone?.headers).toContainEqual(["From", "coordinator"]);
  // The head is not the file: it is never offered as its download.
  expect(await getRawMessage(key)).toBeNull();
});
