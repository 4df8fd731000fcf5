import { describe, expect, it } from "vitest";
import { sharedQueues } from "./shared-queues";

describe("the queues a bulk requeue offers", () => {
  const bySource = { "ws-ignite": ["leader", "ignitian_1", "ignitian_2"], "ws-ignite-yaml": ["leader", "ignitian_2"], "ws-kicklang": ["⫻command/dispatch"] };

  it("are the letters' own source's queues, not every source's agents", () => {
    expect(sharedQueues([{ source: "ws-ignite" }], bySource)).toEqual(["leader", "ignitian_1", "ignitian_2"]);
  });

  it("are the queues every selected letter's source has, when they come from several", () => {
    expect(sharedQueues([{ source: "ws-ignite" }, { source: "ws-ignite-yaml" }, { source: "ws-ignite" }], bySource)).toEqual(["leader", "ignitian_2"]);
  });

  it("are none for no selection or an unknown source", () => {
    expect(sharedQueues([], bySource)).toEqual([]);
    expect(sharedQueues([{ source: "gone" }], bySource)).toEqual([]);
  });
});
