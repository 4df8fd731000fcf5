import { describe, expect, it } from "vitest";
import { capabilitiesOf } from "./capabilities";

const base = { protocol: "ignite" as const, agent: "architect", to: ["architect"], body: "task_id: x\n", data: null };
const dlBody = 'original_file: "a.mime"\nfailure_info:\n  retry_count: 3\noriginal_message: |\n  Message-ID: <m@x>\n  To: architect\n\n  task_id: "t1"\n';

describe("capabilitiesOf", () => {
  it("offers requeue and discard on a dead letter, starting the editor from the original's body", () => {
    const caps = capabilitiesOf({ ...base, agent: "dead_letter", folder: "dead_letter", status: "dead", path: ".ignite/queue/dead_letter/a_dlq_1.mime", body: dlBody });
    expect(caps).toMatchObject({ requeue: true, discard: true, retry: false, restore: false, defaultQueue: "architect", originalBody: 'task_id: "t1"\n' });
  });

  it("offers retry, requeue and discard on a processing message, restore on an archived one", () => {
    expect(capabilitiesOf({ ...base, folder: "processed", status: "processing", path: "p" })).toMatchObject({ requeue: true, retry: true, discard: true });
    // Nothing retries a failed one but an operator.
    expect(capabilitiesOf({ ...base, folder: "processed", status: "error", path: "p" })).toMatchObject({ requeue: true, retry: true, discard: true });
    expect(capabilitiesOf({ ...base, folder: "archive", status: "discarded", path: "p" })).toMatchObject({ restore: true, discard: false });
    expect(capabilitiesOf({ ...base, folder: "queue", status: "queued", path: "p" })).toMatchObject({ discard: true, requeue: false, retry: false });
  });

  it("requeues a dead original without a path; nothing for a completed message or another protocol", () => {
    expect(capabilitiesOf({ ...base, folder: "processed", status: "dead", path: null })).toMatchObject({ requeue: true, path: null });
    expect(capabilitiesOf({ ...base, folder: "processed", status: "completed", path: null })).toBeNull();
    expect(capabilitiesOf({ ...base, protocol: "shogun", folder: "inbox", status: "unread", path: "p" })).toBeNull();
  });
});
