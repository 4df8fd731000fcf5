import { describe, expect, it } from "vitest";
import { DEAD_LETTER_FOLDER, type HistoryEvent } from "@/lib/model";
import type { ProtocolCatalog } from "@/lib/protocols/types";
import { VOCABULARY } from "@/lib/protocols";
import { foldSteps, folderOf, lifecycleSteps } from "./lifecycle";

const IGNITE = VOCABULARY.catalogOf("ignite");
const t0 = Date.parse("2026-11-20T09:00:00Z");
const at = (ms: number) => new Date(t0 + ms).toISOString();
const ev = (ms: number, kind: string, detail: string): HistoryEvent => ({ at: at(ms), kind, detail });

const Q = ".ignite/queue/leader/a.mime";
const P = ".ignite/queue/leader/processed/a.mime";

describe("folderOf", () => {
  it("names the folder a file is in", () => {
    expect(folderOf(Q, IGNITE)).toBe("queue/");
    expect(folderOf(P, IGNITE)).toBe("processed/");
    expect(folderOf(".ignite/queue/dead_letter/a_dlq_1.mime", IGNITE)).toBe("dead_letter/");
    expect(folderOf("notes.txt", IGNITE)).toBeNull();
  });
});

describe("lifecycleSteps", () => {
  const history = [
    ev(0, "seen", `first seen in ${Q} as queued`),
    ev(12_000, "moved", `${Q} → ${P} (queued → processing)`),
    ev(12_000 + 4 * 60_000, "status", "processing → delivered"),
    ev(2 * 3_600_000 + 12_000, "gone", `${P} was deleted; now completed`),
  ];

  it("says how long the message stayed in each place", () => {
    const steps = lifecycleSteps(history, IGNITE);
    expect(steps.map((s) => s.spent)).toEqual(["12 s in queue/", "4 min processing", "1 h 56 min in processed/", null]);
    expect(steps.map((s) => s.state)).toEqual(["in queue/", "processing", "in processed/", null]);
  });

  it("says when the file went, counted from first seen", () => {
    expect(lifecycleSteps(history, IGNITE).at(-1)?.note).toBe("gone after 2 h");
  });

  it("measures the present place up to now", () => {
    const steps = lifecycleSteps(history.slice(0, 2), IGNITE, t0 + 12_000 + 90_000);
    expect(steps[1]?.spent).toBe("1 min processing so far");
    expect(lifecycleSteps(history.slice(0, 2), IGNITE)[1]?.spent).toBeNull();
  });

  it("does not cut a stay short at events that do not move the message", () => {
    const steps = lifecycleSteps([
      ev(0, "moved", `${Q} → ${P} (queued → processing)`),
      ev(300_000, "stuck", "processing for more than 300 s"),
      ev(400_000, "status", "processing → delivered"),
    ], IGNITE);
    expect(steps.map((s) => s.spent)).toEqual(["6 min processing", null, null]);
  });

  it("follows retries, dead letters and requeues", () => {
    const steps = lifecycleSteps(
      [
        ev(0, "seen", `first seen in ${P} as processing`),
        ev(30_000, "retried", `retry 1: ${P} → ${Q}`),
        ev(40_000, "dead-lettered", "moved to dead_letter/ after 3 retries"),
        ev(100_000, "requeued", `back in ${Q} as queued`),
      ],
      IGNITE,
      t0 + 100_500,
    );
    expect(steps.map((s) => s.spent)).toEqual(["30 s processing", "10 s waiting to retry", "1 min in dead_letter/", "<1 s in queue/ so far"]);
  });

  it("counts a dead letter's whole stay in dead_letter/, through the deletion of the original file", () => {
    const dead = [
      ev(0, "seen", `first seen in ${P} as processing`),
      ev(40_000, "dead-lettered", "dead letter .ignite/queue/dead_letter/a_dlq_1.mime after 3 retries"),
      ev(41_500, "gone", `${P} was deleted; now dead`),
    ];
    const stillDead = lifecycleSteps(dead, IGNITE, t0 + 40_000 + 2 * 3_600_000);
    expect(stillDead.map((s) => s.spent)).toEqual(["40 s processing", "2 h in dead_letter/ so far", null]);
    expect(stillDead[2]?.note).toBe("gone after 41 s");

    const requeued = lifecycleSteps([...dead, ev(40_000 + 3 * 3_600_000, "requeued", `back in ${Q} as queued`)], IGNITE, t0 + 40_000 + 3 * 3_600_000 + 5_000);
    expect(requeued.map((s) => s.spent)).toEqual(["40 s processing", "3 h in dead_letter/", null, "5 s in queue/ so far"]);
  });

  it("ends the stay in dead_letter/ when the dead letter is discarded, and starts one in the archive", () => {
    const steps = lifecycleSteps(
      [
        ev(0, "seen", `first seen in ${P} as processing`),
        ev(40_000, "dead-lettered", "dead letter .ignite/queue/dead_letter/a_dlq_1.mime after 3 retries"),
        ev(41_500, "gone", `${P} was deleted; now dead`),
        ev(40_000 + 3_600_000, "status", "dead → discarded"),
        ev(40_000 + 5_400_000, "status", "discarded → dead"),
      ],
      IGNITE,
      t0 + 40_000 + 5_460_000,
    );
    expect(steps.map((s) => s.state)).toEqual(["processing", "in dead_letter/", "in dead_letter/", "in archive/", "in dead_letter/"]);
    expect(steps.map((s) => s.spent)).toEqual(["40 s processing", "1 h in dead_letter/", null, "30 min in archive/", "1 min in dead_letter/ so far"]);
  });

  it("still counts a move between two folders of the same name as a new stay", () => {
    const other = ".ignite/queue/strategist/a.mime";
    const steps = lifecycleSteps([ev(0, "seen", `first seen in ${Q} as queued`), ev(60_000, "moved", `${Q} → ${other}`)], IGNITE, t0 + 90_000);
    expect(steps.map((s) => s.spent)).toEqual(["1 min in queue/", "30 s in queue/ so far"]);
  });

  it("places a message first known from its dead letter in dead_letter/", () => {
    const steps = lifecycleSteps([ev(0, "seen", `first seen in ${P} (known from a dead letter; the file is gone) as dead`)], IGNITE, t0 + 90_000);
    expect(steps[0]?.spent).toBe("1 min in dead_letter/ so far");
    // Its dead letter's own event, which follows, does not split the stay in two.
    const linked = lifecycleSteps([...steps.map((s) => s.event), ev(0, "dead-lettered", "dead letter .ignite/queue/dead_letter/a_dlq_1.mime")], IGNITE, t0 + 90_000);
    expect(linked.map((s) => s.spent)).toEqual(["1 min in dead_letter/ so far", null]);
  });

  it("counts a second dead letter as a stay of its own: the message left dead_letter/ and died again, unseen", () => {
    const steps = lifecycleSteps(
      [
        ev(0, "seen", `first seen in ${P} (known from a dead letter; the file is gone) as dead`),
        ev(0, "dead-lettered", "dead letter .ignite/queue/dead_letter/a_dlq_1.mime after 3 retries"),
        ev(3_600_000, "dead-lettered", "dead letter .ignite/queue/dead_letter/a_dlq_2.mime after 3 retries"),
      ],
      IGNITE,
      t0 + 2 * 3_600_000,
    );
    expect(steps.map((s) => s.spent)).toEqual(["1 h in dead_letter/", null, "1 h in dead_letter/ so far"]);
  });

  it("places a message whose dead letter it was known from in the archive, when that is where the dead letter is", () => {
    const archived = ".ignite/archive/mailroom/queue/dead_letter/a_dlq_1.mime";
    const steps = lifecycleSteps(
      [
        ev(0, "seen", `first seen in ${P} (known from a dead letter; the file is gone) as discarded`),
        ev(30_000, "dead-lettered", `dead letter ${archived} after 3 retries`),
      ],
      IGNITE,
      t0 + 90_000,
    );
    expect(steps.map((s) => s.spent)).toEqual([null, "1 min in archive/ so far"]);
  });

  it("shows an operator's action with the move it made, as one step", () => {
    const DL = ".ignite/queue/dead_letter/a_dlq_1.mime";
    const requeue = ev(100_040, "requeue by operator", `${DL} → ${Q} (from http://localhost:3000)`);
    const steps = lifecycleSteps(
      [ev(40_000, "dead-lettered", `dead letter ${DL}`), ev(100_000, "requeued", `back in ${Q} as queued`), requeue],
      IGNITE,
      t0 + 160_000,
    );
    expect(steps.map((s) => [s.event.kind, s.cause?.kind ?? null])).toEqual([["dead-lettered", null], ["requeued", "requeue by operator"]]);
    expect(steps[1]?.cause).toBe(requeue);
    expect(steps[1]?.spent).toBe("1 min in queue/ so far");
  });

  it("keeps an operator's action as a step of its own when no move just before it is its doing", () => {
    const retry = (ms: number) => ev(ms, "retry by operator", `${P} → ${Q} as retry 1 (from http://localhost:3000)`);
    const kinds = (history: HistoryEvent[]) => lifecycleSteps(history, IGNITE).map((s) => [s.event.kind, s.cause?.kind ?? null]);
    // Ingest saw the move long before (it was not this action's), or nothing moved at all.
    expect(kinds([ev(0, "retried", `retry 1: ${P} → ${Q}`), retry(60_000)])).toEqual([["retried", null], ["retry by operator", null]]);
    expect(kinds([ev(0, "stuck", "processing for more than 300 s"), retry(10)])).toEqual([["stuck", null], ["retry by operator", null]]);
    // An agent's own move came in between: the action names another path.
    expect(kinds([ev(0, "moved", `${Q} → ${P} (queued → processing)`), retry(10)])).toEqual([["moved", null], ["retry by operator", null]]);
    // One move has one cause: a second action right after it stands alone.
    expect(kinds([ev(0, "retried", `retry 1: ${P} → ${Q}`), retry(10), retry(20)])).toEqual([
      ["retried", "retry by operator"], ["retry by operator", null],
    ]);
  });

  it("copes with an empty history and details it does not understand", () => {
    expect(lifecycleSteps([], IGNITE)).toEqual([]);
    const steps = lifecycleSteps([ev(0, "seen", "something else"), ev(5_000, "requeue", "by an operator")], IGNITE, t0 + 10_000);
    expect(steps.map((s) => s.spent)).toEqual([null, null]);
  });
});

describe("future dates", () => {
  it("shows an event stamped later than now at now, and keeps its own time apart", () => {
    const now = t0 + 60_000;
    const history = [ev(0, "seen", `first seen in ${Q} as queued`), ev(3_600_000, "moved", `${Q} → ${P} (queued → processing)`)];
    const steps = lifecycleSteps(history, IGNITE, now);
    expect(steps[1]?.event.at).toBe(new Date(now).toISOString());
    expect(steps[1]?.future).toBe(at(3_600_000));
    expect(steps[0]?.future).toBeNull();
    expect(steps[0]?.spent).toBe("1 min in queue/");
  });

  it("leaves an event a few seconds ahead of the page's clock alone", () => {
    const steps = lifecycleSteps([ev(5_000, "seen", `first seen in ${Q} as queued`)], IGNITE, t0);
    expect(steps[0]?.future).toBeNull();
    expect(steps[0]?.event.at).toBe(at(5_000));
  });
});

describe("foldSteps", () => {
  it("folds the middle of a long lifecycle, keeping its first and latest steps", () => {
    const steps = Array.from({ length: 20 }, (_, i) => i);
    const { head, folded, tail } = foldSteps(steps);
    expect(head).toEqual([0, 1]);
    expect(tail).toEqual([16, 17, 18, 19]);
    expect([...head, ...folded, ...tail]).toEqual(steps);
  });

  it("leaves a short lifecycle whole", () => {
    expect(foldSteps([1, 2, 3, 4, 5, 6, 7])).toEqual({ head: [1, 2, 3, 4, 5, 6, 7], folded: [], tail: [] });
  });
});

describe("a lifecycle in its protocol's words", () => {
  // Another protocol's words, as its catalog would give them: nothing of IGNITE's is assumed.
  const other: ProtocolCatalog = {
    ...IGNITE,
    folders: ["outbox", "sent", DEAD_LETTER_FOLDER, "bin"],
    retryWaits: ["later"],
    working: ["busy"],
    deadLetterStatus: "lost",
    fileLife: { deleted: "done", cleared: "swept", discarded: "binned", archive: "bin", kept: [], stuck: "busy" },
  };
  const O = "w/outbox/a.msg";
  const S = "w/outbox/sent/a.msg";

  it("names folders by the catalog's words, innermost first, and the archive wherever it is", () => {
    expect(folderOf(S, other)).toBe("sent/");
    expect(folderOf(O, other)).toBe("outbox/");
    expect(folderOf("w/bin/outbox/sent/a.msg", other)).toBe("bin/");
    expect(folderOf(Q, other)).toBeNull();
    expect(folderOf(".ignite/archive/mailroom/queue/leader/processed/a.mime", IGNITE)).toBe("archive/");
  });

  it("tells working, retry waits, dead letters and discards by the catalog", () => {
    const steps = lifecycleSteps(
      [
        ev(0, "seen", `first seen in ${S} as busy`),
        ev(30_000, "retried", `retry 1: ${S} → ${O}`),
        ev(40_000, "dead-lettered", "dead letter w/dead_letter/a.msg after 3 retries"),
        ev(100_000, "status", "lost → binned"),
        ev(160_000, "discarded", `moved to the archive: ${O} → w/bin/outbox/a.msg`),
      ],
      other,
      t0 + 200_000,
    );
    expect(steps.map((s) => s.state)).toEqual(["busy", "waiting to retry", "in dead_letter/", "in bin/", "in bin/"]);
    // IGNITE's own words mean nothing special to another protocol.
    const ignites = lifecycleSteps([ev(0, "seen", `first seen in ${S} as processing`), ev(1_000, "status", "processing → retrying")], other);
    expect(ignites.map((s) => s.state)).toEqual(["in sent/", "in sent/"]);
  });
});


describe("a lifecycle from the events' typed facts", () => {
  const typed = (ms: number, kind: string, detail: string, data: NonNullable<HistoryEvent["data"]>): HistoryEvent => ({ ...ev(ms, kind, detail), data });
  const SHOGUN = VOCABULARY.catalogOf("shogun");
  const inbox = "queue/inbox/karo.yaml";

  it("reads where an entry was from its facts, which its sentence does not say", () => {
    const steps = lifecycleSteps(
      [
        typed(0, "seen", `first seen in ${inbox} (msg_1), unread`, { path: inbox, locator: "msg_1", status: "unread" }),
        typed(60_000, "moved", `moved from ${inbox} to queue/archive/karo.yaml`, { from: inbox, to: "queue/archive/karo.yaml", fromFolder: "inbox", toFolder: "archive" }),
        typed(90_000, "gone", "queue/archive/karo.yaml was deleted", { from: "queue/archive/karo.yaml", to: null }),
      ],
      SHOGUN,
      t0 + 120_000,
    );
    expect(steps.map((s) => s.state)).toEqual(["in inbox/", "in archive/", null]);
    expect(steps.map((s) => s.spent)).toEqual(["1 min in inbox/", "30 s in archive/", null]);
  });

  it("ends an entry's stay when its file is rewritten without it: no \"so far\" for a task overwritten by the next", () => {
    const task = "queue/tasks/ashigaru2.yaml";
    const steps = lifecycleSteps(
      [
        typed(0, "seen", `first seen in ${task} (subtask_106b), assigned`, { path: task, locator: "subtask_106b", status: "assigned" }),
        typed(16 * 60_000, "trimmed", `no longer in ${task} (the file was rewritten without it)`, { from: task, to: null }),
      ],
      SHOGUN,
      t0 + 60 * 60_000,
    );
    expect(steps.map((s) => s.state)).toEqual(["in tasks/", null]);
    expect(steps.map((s) => s.spent)).toEqual(["16 min in tasks/", null]);
  });

  it("prefers the facts to the sentence, and reads the sentence of an event that has none", () => {
    const steps = lifecycleSteps(
      [
        typed(0, "seen", `first seen in ${Q} as queued`, { path: P, status: "processing" }),
        typed(10_000, "status", "processing → delivered", { from: "processing", to: "retrying" }),
        ev(20_000, "status", "retrying → processing"),
      ],
      IGNITE,
    );
    expect(steps.map((s) => s.state)).toEqual(["processing", "waiting to retry", "processing"]);
  });
});
