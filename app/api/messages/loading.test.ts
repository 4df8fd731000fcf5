// GET /api/messages while a first scan is still loading: the page (and a poll) says how far it is,
// and says nothing once the scan is done. A real journal file, written as ingest writes it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeJournals, getJournal } from "@/lib/journal/store";
import { JournalWriter } from "@/lib/journal/writer";
import type { MessagePage } from "@/lib/model";
import { fileRecord } from "@/lib/testing/parsed";
import { GET as messages } from "./route";

const ENV = ["MAILROOM_ROOT", "MAILROOM_DATA"] as const;
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
let parent: string;
let writer: JournalWriter;

beforeAll(() => {
  parent = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-loading-"));
  fs.mkdirSync(path.join(parent, "app"));
  process.env.MAILROOM_ROOT = path.join(parent, "app");
  process.env.MAILROOM_DATA = path.join(parent, "data");
  writer = new JournalWriter(getJournal().db);
  writer.upsertSource({ id: "app-ignite", protocol: "ignite", root: process.env.MAILROOM_ROOT, error: null });
  writer.record({ ...fileRecord("queue/leader/a.mime", { messageId: "<a@x>", date: "2026-02-04T09:00:00.000Z" }), source: "app-ignite" });
});
afterAll(() => {
  closeJournals();
  for (const k of ENV) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  fs.rmSync(parent, { recursive: true, force: true });
});

async function page(query = ""): Promise<MessagePage> {
  const res = await messages(new NextRequest(`http://127.0.0.1/api/messages${query}`));
  expect(res.status).toBe(200);
  return (await res.json()) as MessagePage;
}

describe("GET /api/messages during a first scan", () => {
  it("carries how many files are loaded of how many, and down to when the newest messages are all there", async () => {
    writer.setProgress("app-ignite", 2_000, 100_000, false);
    expect((await page()).loading).toEqual({ loaded: 2_000, total: 100_000, completeAfter: null });
    writer.setLoadClaim("app-ignite", Date.parse("2026-02-04T08:55:30.000Z"));
    const newest = await page();
    expect(newest.loading).toEqual({ loaded: 2_000, total: 100_000, completeAfter: "2026-02-04T08:55:30.000Z" });
    expect(newest.items.map((m) => m.messageId)).toEqual(["<a@x>"]);
    // A filtered page and a poll say so too: they answer over what is loaded.
    expect((await page("?q=from:nobody")).loading).toMatchObject({ loaded: 2_000 });
    expect((await page(`?since=${newest.seq}`)).loading).toMatchObject({ loaded: 2_000 });
  });

  it("says nothing of loading once the scan is done", async () => {
    writer.setProgress("app-ignite", 100_000, 100_000, true);
    writer.setLoadClaim("app-ignite", null);
    expect((await page()).loading).toBeUndefined();
  });
});
