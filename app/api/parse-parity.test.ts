// The detail's `ignite` is the reference tool's JSON, text and all: key order and empty files.
import fs from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MessagePage } from "@/lib/model";
import { fixturePath } from "@/lib/testing/fixtures";
import { openIngestedWorkspace, type IngestedWorkspace } from "@/lib/testing/ingested-workspace";
import { GET as messages } from "./messages/route";
import { GET as message } from "./messages/[key]/route";

let workspace: IngestedWorkspace;
beforeAll(async () => {
  workspace = await openIngestedWorkspace();
});
afterAll(() => workspace.close());

async function detailText(rel: string): Promise<string> {
  const page = (await (await messages(new NextRequest(`http://localhost/api/messages?q=${encodeURIComponent(`path:${rel}`)}`))).json()) as MessagePage;
  const key = page.items[0]?.key ?? "";
  return (await message(new NextRequest(`http://localhost/api/messages/${key}`), { params: Promise.resolve({ key }) })).text();
}

/** Where each key is written in the response's `ignite` member (-1: not there). */
function keyPositions(text: string, keys: string[]): number[] {
  const ignite = text.slice(text.indexOf('"ignite":{'));
  return keys.map((k) => ignite.indexOf(`${JSON.stringify(k)}:`));
}

describe("ignite parity edge cases", () => {
  it("keeps header names that look like integers in file order", async () => {
    const rel = ".ignite/queue/leader/numbered_1795400000000001.mime";
    fs.writeFileSync(path.join(workspace.ws, rel), "From: a\nX-IGNITE-Zeta: z\nX-IGNITE-7: seven\nX-IGNITE-Alpha: a\nX-IGNITE-10: ten\n\nbody\n");
    await workspace.scanNow();
    const at = keyPositions(await detailText(rel), ["body", "zeta", "7", "alpha", "10"]);
    expect(at.every((p) => p > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it("gives an empty file the reference tool's object of empty fields, not null", async () => {
    const rel = ".ignite/queue/architect/processed/empty_1795300000000002.mime";
    const detail = JSON.parse(await detailText(rel)) as { ignite: unknown };
    const expected: unknown = JSON.parse(fs.readFileSync(fixturePath("ignite", "expected", "queue__architect__processed__empty_1795300000000002.mime.json"), "utf8"));
    expect(detail.ignite).toEqual(expected);
  });
});
