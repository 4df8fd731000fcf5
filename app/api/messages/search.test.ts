// GET /api/messages?q=protocol:… and source:…, and the facets that complete them, against a real
// journal file holding messages of two protocols (written as ingest writes them).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as facets } from "@/app/api/facets/route";
import { holdsSeveralProtocols } from "@/lib/journal/facets";
import { closeJournals, getJournal } from "@/lib/journal/store";
import { JournalWriter } from "@/lib/journal/writer";
import type { MessagePage, Protocol } from "@/lib/model";
import { fileRecord } from "@/lib/testing/parsed";
import { GET as messages } from "./route";

const ENV = ["MAILROOM_ROOT", "MAILROOM_DATA"] as const;
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
let parent: string;

beforeAll(() => {
  parent = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-search-"));
  fs.mkdirSync(path.join(parent, "app"));
  process.env.MAILROOM_ROOT = path.join(parent, "app");
  process.env.MAILROOM_DATA = path.join(parent, "data");
  const writer = new JournalWriter(getJournal().db);
  const add = (name: string, source: string, protocol: Protocol, ino: number) =>
    writer.record({ ...fileRecord(`queue/leader/${name}.mime`, { messageId: `<${name}@x>` }, { mtimeMs: ino, size: 1, ino }), source, protocol });
  add("v3a", "app-ignite", "ignite", 1);
  add("v3b", "app-ignite", "ignite", 2);
  add("sh1", "app-shogun", "shogun", 3);
});
afterAll(() => {
  closeJournals();
  for (const k of ENV) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  fs.rmSync(parent, { recursive: true, force: true });
});

const search = (q: string) => messages(new NextRequest(`http://127.0.0.1/api/messages?q=${encodeURIComponent(q)}`));
async function found(q: string): Promise<string[]> {
  const res = await search(q);
  expect(res.status).toBe(200);
  const page = (await res.json()) as MessagePage;
  return page.items.map((m) => `${m.protocol}:${m.key.split("-")[0]}`).sort();
}

describe("GET /api/messages?q=protocol:…", () => {
  it("lists the messages of a protocol, of a source, and of the rest when negated", async () => {
    expect(await found("protocol:shogun")).toEqual(["shogun:sh1"]);
    expect(await found("protocol:V3")).toEqual(["ignite:v3a", "ignite:v3b"]);
    expect(await found("-protocol:ignite")).toEqual(["shogun:sh1"]);
    expect(await found("source:app-ignite")).toEqual(["ignite:v3a", "ignite:v3b"]);
    expect(await found("source:app-* -source:app-shogun")).toEqual(["ignite:v3a", "ignite:v3b"]);
  });

  it("answers an unknown protocol with a 400 naming the protocols it takes", async () => {
    const res = await search("protocol:smtp");
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("bad_query");
    expect(body.error.message).toMatch(/unknown protocol "smtp": expected one of ignite, ignite-yaml, shogun, workflow, kicklang/);
  });

  it("answers a source it knows nothing of with a 400 naming the near ones, not an empty list", async () => {
    const message = async (q: string) => {
      const res = await search(q);
      expect(res.status).toBe(400);
      return ((await res.json()) as { error: { code: string; message: string } }).error.message;
    };
    expect(await message("source:shogun")).toMatch(/unknown source "shogun": did you mean app-shogun\? \(source: takes \* as a wildcard\)/);
    expect(await message("type:x source:nowhere")).toMatch(/unknown source "nowhere": the sources are app-ignite, app-shogun\. .*\(at position 15\)/);
    // A wildcard, or one left out, names no source to know.
    expect(await found("source:*shogun")).toEqual(["shogun:sh1"]);
    expect(await found("-source:shogun")).toEqual(["ignite:v3a", "ignite:v3b", "shogun:sh1"]);
  });

  it("offers the sources and protocols present for completion", async () => {
    const res = await facets(new Request("http://127.0.0.1/api/facets"));
    expect(await res.json()).toMatchObject({ sources: ["app-ignite", "app-shogun"], protocols: ["ignite", "shogun"] });
  });
});

describe("a journal of two protocols", () => {
  it("tells the pages to say which protocol each message speaks", () => {
    expect(holdsSeveralProtocols()).toBe(true);
  });
});
