// The read before a requeue or retry goes through the one safe open (lib/protocols/safe-open.ts):
// a message file replaced by a hard link to a file outside the tree is never read, so its bytes
// are never written into a queue.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { STUCK, failureOf, openHarness, type Harness } from "./test-harness";
import { requeueMessage, retryMessage } from "./index";

let h: Harness;
let outside: string;
beforeEach(async () => {
  h = await openHarness();
  outside = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-outside-"));
});
afterEach(() => {
  h.close();
  fs.rmSync(outside, { recursive: true, force: true });
});

const actor = "http://127.0.0.1:3000";

it("refuses to retry or requeue a message whose file became a hard link to a file outside the tree, and writes nothing", async () => {
  const key = h.keyAt(STUCK);
  // Still a message to the parser, so only the link count can tell it is not the queue's own file.
  const secret = path.join(outside, "secret.mime");
  fs.writeFileSync(secret, h.read(STUCK).replace(/\n\n[\s\S]*$/, "\n\nsecret: SECRET OUTSIDE THE ROOT\n"));
  fs.unlinkSync(h.abs(STUCK));
  fs.linkSync(secret, h.abs(STUCK));
  const before = h.tree();
  expect(await failureOf(retryMessage(key, { path: STUCK, actor }))).toMatchObject({ status: 409, code: "not_a_file" });
  expect(await failureOf(requeueMessage(key, { path: STUCK, actor }))).toMatchObject({ status: 409, code: "not_a_file" });
  expect(h.tree()).toEqual(before);
  for (const rel of h.tree()) {
    if (rel !== STUCK) expect(fs.readFileSync(path.join(h.ws, rel), "utf8")).not.toContain("SECRET OUTSIDE");
  }
});
