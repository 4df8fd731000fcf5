// The dead-letter list is computed again whenever the journal changes, but an item is built again
// (its body parsed) only when its own row or its original's moved: a busy team's writes elsewhere
// leave the list's items as they were, the very same objects.
import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { planMessageAction, requeueMessage, runBulk } from "@/lib/operations";
import { ignite } from "@/lib/protocols/fixtures";
import { DL_ARCH, DL_TASK, QUEUED, openHarness, type Harness } from "@/lib/operations/test-harness";
import { LISTED_DEAD_LETTERS_SQL, listDeadLetters } from "./dead-letters";
import { getJournal } from "./store";

const { parseDeadLetterBody, splitHeaderBlock } = ignite;

describe("the dead-letter list", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await openHarness();
  });
  afterEach(() => h.close());

  const itemAt = (items: ReturnType<typeof listDeadLetters>["items"], path: string) => items.find((d) => d.path === path);

  it("keeps the items a write elsewhere did not touch, and builds again those whose original moved", async () => {
    const first = listDeadLetters();
    expect(first.items.map((d) => d.path).sort()).toEqual([DL_ARCH, DL_TASK].sort());

    // A new message in another queue: the list is asked again, its items are the same objects.
    const text = h.read(QUEUED).replace(/^Message-ID: .*$/m, "Message-ID: <another@ignite.local>");
    fs.writeFileSync(h.abs(QUEUED.replace(/\.mime$/, "_2.mime")), text);
    await h.service.scanNow();
    const second = listDeadLetters();
    expect(second.seq).toBeGreaterThan(first.seq);
    expect(second.items).not.toBe(first.items);
    for (const path of [DL_ARCH, DL_TASK]) expect(itemAt(second.items, path)).toBe(itemAt(first.items, path));

    // Requeued to another queue: the dead letter leaves the list and its original moved; the other one stays as it was.
    await requeueMessage(h.keyAt(DL_ARCH), { to: "ignitian_1", actor: "http://127.0.0.1:3000" });
    const third = listDeadLetters();
    expect(itemAt(third.items, DL_ARCH)).toBeUndefined();
    expect(itemAt(third.items, DL_TASK)).toBe(itemAt(first.items, DL_TASK));
  });

  it("builds an item again when only its original's row moved", async () => {
    const first = listDeadLetters();
    // The original comes back to its queue by hand (as an operator's `cp` would): its row moves, the dead letter's does not.
    const target = ".ignite/queue/architect/architecture_request_1795133781377120.mime";
    const original = parseDeadLetterBody(splitHeaderBlock(h.read(DL_ARCH)).body).originalText;
    if (!original) throw new Error("the fixture's dead letter holds its original");
    fs.writeFileSync(h.abs(target), original);
    await h.service.scanNow();
    const next = listDeadLetters();
    expect(itemAt(next.items, DL_ARCH)).not.toBe(itemAt(first.items, DL_ARCH));
    expect(itemAt(next.items, DL_ARCH)).toMatchObject({ originalPath: target });
    expect(itemAt(next.items, DL_TASK)).toBe(itemAt(first.items, DL_TASK));
  });

  it("says which of the page's actions each letter offers, as its protocol does", () => {
    for (const path of [DL_ARCH, DL_TASK]) expect(itemAt(listDeadLetters().items, path)?.actions).toEqual([{ id: "requeue", verb: "Requeue" }, { id: "discard", verb: "Discard" }]);
  });

  it("finds the dead letters through their own index, not a walk over every message", () => {
    const { db } = getJournal();
    db.exec("ANALYZE");
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${LISTED_DEAD_LETTERS_SQL}`).all(1000) as { detail: string }[];
    expect(plan.map((p) => p.detail).join("; ")).toMatch(/^SCAN d USING INDEX messages_dead_letters;/);
  });
});

describe("an IGNITE v2 dead letter on the list", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await openHarness("ignite-yaml");
  });
  afterEach(() => h.close());

  it("offers requeue and discard, and the page's bulk requeue puts its original back in its queue", async () => {
    const [letter] = listDeadLetters().items;
    expect(letter).toMatchObject({ protocol: "ignite-yaml", actions: [{ id: "requeue", verb: "Requeue" }, { id: "discard", verb: "Discard" }] });
    if (!letter) throw new Error("the fixture holds a dead letter");
    const requeue = () => runBulk({ action: "requeue", keys: [letter.key], dryRun: false }, "http://127.0.0.1:3000");
    // The queue it failed in is not in the fixture: said plainly, nothing written.
    expect((await requeue()).results).toMatchObject([{ ok: false, error: { message: "to: there is no queue/ignitian_2/ to write to" } }]);
    fs.mkdirSync(h.abs("queue/ignitian_2"));
    const { results } = await requeue();
    expect(results, JSON.stringify(results)).toMatchObject([{ key: letter.key, ok: true }]);
    await h.service.scanNow();
    expect(listDeadLetters().items.map((d) => d.key)).not.toContain(letter.key);
  });

  it("says where a requeue archived the letter, so its undo puts the letter back under its own key", async () => {
    const [letter] = listDeadLetters().items;
    if (!letter) throw new Error("the fixture holds a dead letter");
    fs.mkdirSync(h.abs("queue/ignitian_2"));
    const actor = { actor: "http://127.0.0.1:3000" };
    const done = await (await planMessageAction(letter.key, "requeue", { path: letter.path, ...actor })).run();
    expect(done.archived).toEqual({ key: letter.key, path: `archive/mailroom/${letter.path}` });
    // The page's undo: the requeued copy discarded, then the letter restored.
    await (await planMessageAction(done.key, "discard", { path: done.path, ...actor })).run();
    if (!done.archived) return;
    await (await planMessageAction(done.archived.key, "restore", { path: done.archived.path, ...actor })).run();
    await h.service.scanNow();
    expect(listDeadLetters().items).toMatchObject([{ key: letter.key, path: letter.path }]);
  });
});
