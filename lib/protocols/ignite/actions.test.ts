import { describe, expect, it } from "vitest";
import type { ActionSubject } from "@/lib/protocols/actions";
import { actionsFor } from "./actions";

const base: ActionSubject = {
  key: "k", protocol: "ignite", locator: "", messageId: "<m@x>", from: "leader", type: "task", agent: "architect", to: ["architect"],
  folder: "queue", status: "queued", path: "p", body: "task_id: x\n", data: null, heldAgent: null,
};
const dlBody = 'original_file: "a.mime"\nfailure_info:\n  retry_count: 3\noriginal_message: |\n  Message-ID: <m@x>\n  To: architect\n\n  task_id: "t1"\n';
const ids = (m: Partial<ActionSubject>) => actionsFor({ ...base, ...m }).map((a) => a.id);

describe("IGNITE v3 actionsFor", () => {
  it("offers requeue and discard on a dead letter, the editor starting from the original's body, to the queue it failed in", () => {
    const [requeue, ...rest] = actionsFor({ ...base, agent: "dead_letter", folder: "dead_letter", status: "dead", path: ".ignite/queue/dead_letter/a_dlq_1.mime", body: dlBody });
    expect(requeue).toMatchObject({ id: "requeue", input: "queue+body", queue: "architect", body: 'task_id: "t1"\n' });
    expect(rest.map((a) => a.id)).toEqual(["discard"]);
    expect(actionsFor({ ...base, folder: "dead_letter", status: "dead", body: dlBody, heldAgent: "ignitian_2" })[0]?.queue).toBe("ignitian_2");
    expect(ids({ folder: "dead_letter", status: "dead", body: "nothing: here\n" })).toEqual(["discard"]);
  });

  it("offers requeue, retry and discard on a processing or failed message, restore on an archived one, discard on a queued one", () => {
    expect(ids({ folder: "processed", status: "processing" })).toEqual(["requeue", "retry", "discard"]);
    // Nothing retries a failed one but an operator.
    expect(ids({ folder: "processed", status: "error" })).toEqual(["requeue", "retry", "discard"]);
    expect(ids({ folder: "archive", status: "discarded" })).toEqual(["restore"]);
    expect(ids({})).toEqual(["discard"]);
  });

  it("requeues a dead original without a path through the one letter holding it; nothing for a completed one whose file is gone", () => {
    expect(actionsFor({ ...base, folder: "processed", status: "dead", path: null, heldBy: "dlq" })).toEqual([expect.objectContaining({ id: "requeue", queue: "architect" })]);
    // No letter holds it any more (discarded), or two do: there is nothing to requeue it through.
    expect(ids({ folder: "processed", status: "dead", path: null, heldBy: null })).toEqual([]);
    expect(ids({ folder: "processed", status: "completed", path: null })).toEqual([]);
  });
});
