// Compose with several workspaces (MAILROOM_ROOT with ":"): the "source" field picks one.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openIngestedWorkspace, type IngestedWorkspace } from "@/lib/testing/ingested-workspace";
import { compose, ComposeFieldsError } from "./compose";

let w: IngestedWorkspace;
beforeAll(async () => {
  w = await openIngestedWorkspace(2);
});
afterAll(() => w.close());

const message = { from: "user", to: ["leader"], type: "user_goal", body: "goal: two workspaces\n" };

describe("compose with two IGNITE workspaces", () => {
  it("is a 400 on source when none is named, and writes nothing", async () => {
    const before = w.tree();
    const err = (await compose(message, "test").catch((e: unknown) => e)) as ComposeFieldsError;
    expect(err).toBeInstanceOf(ComposeFieldsError);
    expect(err.fields).toEqual({ source: expect.stringMatching(/several IGNITE v3 workspaces are configured; name one \(ws1-ignite, ws2-ignite\)/) });
    expect(w.tree()).toEqual(before);
  });

  it("writes into the named one", async () => {
    const result = await compose({ ...message, source: "ws2-ignite" }, "test");
    const [item] = result.items;
    expect(item?.path).toMatch(/^\.ignite\/queue\/leader\/user_goal_\d{16}\.mime$/);
    expect(fs.existsSync(path.join(w.roots[1]!, item!.path))).toBe(true);
    expect(fs.existsSync(path.join(w.roots[0]!, item!.path))).toBe(false);
    expect(result.dryRun ? null : result.items[0]?.key).toBeTruthy();
  });

  it("is a 400 on source for an unknown one", async () => {
    const err = (await compose({ ...message, source: "ws3-ignite" }, "test").catch((e: unknown) => e)) as ComposeFieldsError;
    expect(err.fields.source).toMatch(/"ws3-ignite" is not one of this Mailroom's IGNITE v3 workspaces/);
  });
});
