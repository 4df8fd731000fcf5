import { describe, expect, it } from "vitest";
import type { MessageSummary } from "@/lib/model";
import { agentLights, mergeTicker, nextProtocol, presentedThread, presenterKey, protocolQuery, stepThread } from "./presenter";

function msg(key: string, at: number, extra: Partial<MessageSummary> = {}): MessageSummary {
  const iso = new Date(Date.UTC(2026, 10, 26, 12, 0, at)).toISOString();
  return {
    key, source: "ws", protocol: "ignite", messageId: `<${key}@t>`, from: "leader", to: ["strategist"], cc: [], type: "note", priority: "normal",
    threadId: "thr", inReplyTo: null, correlationId: null, repository: null, issue: null, date: iso, agent: "strategist", folder: "queue",
    path: null, status: "queued", rawStatus: null, stuck: false, retryCount: 0, nextRetryAt: null, problems: [], duplicate: false,
    deadLetterOf: null, preview: "", size: 1, updatedAt: iso, sortMs: Date.parse(iso), seq: 1,
    ...extra,
  };
}

const threads = [{ id: "newest" }, { id: "middle" }, { id: "oldest" }];

describe("which thread the presenter shows", () => {
  it("follows the newest active thread while nothing is pinned", () => {
    expect(presentedThread(threads, null)).toBe("newest");
    // A new thread comes first in the list: the presenter moves to it by itself.
    expect(presentedThread([{ id: "brand-new" }, ...threads], null)).toBe("brand-new");
  });

  it("stays on a pinned thread, even when a newer one starts or the pinned one leaves the list", () => {
    expect(presentedThread([{ id: "brand-new" }, ...threads], "middle")).toBe("middle");
    expect(presentedThread([{ id: "brand-new" }], "middle")).toBe("middle");
  });

  it("shows nothing when there are no threads", () => {
    expect(presentedThread([], null)).toBeNull();
  });

  it("steps to the next and previous thread, wrapping round", () => {
    expect(stepThread(threads, "newest", 1)).toBe("middle");
    expect(stepThread(threads, "oldest", 1)).toBe("newest");
    expect(stepThread(threads, "newest", -1)).toBe("oldest");
  });

  it("steps from the newest when the current thread is not in the list, and keeps it when the list is empty", () => {
    expect(stepThread(threads, "elsewhere", 1)).toBe("newest");
    expect(stepThread([], "elsewhere", 1)).toBe("elsewhere");
  });
});

describe("the protocol filter", () => {
  it("cycles all → each protocol present → all", () => {
    const present = ["ignite", "shogun", "kicklang"] as const;
    const seen: (string | null)[] = [];
    let p = nextProtocol(present, null);
    while (p !== null) {
      seen.push(p);
      p = nextProtocol(present, p);
    }
    expect(seen).toEqual(["ignite", "shogun", "kicklang"]);
  });

  it("stays on all when no protocol is present, and returns to all from a protocol no longer present", () => {
    expect(nextProtocol([], null)).toBeNull();
    expect(nextProtocol(["ignite"], "workflow")).toBeNull();
  });

  it("filters threads with the search syntax", () => {
    expect(protocolQuery(null)).toBe("");
    expect(protocolQuery("ignite-yaml")).toBe("protocol:ignite-yaml");
  });
});

describe("presenter keys", () => {
  const body = { tagName: "BODY" };
  it("maps arrows, j/k, v, p and Space", () => {
    expect(["ArrowRight", "j", "ArrowLeft", "k", "v", "p", " ", "x"].map((key) => presenterKey({ key }, body))).toEqual([
      "next", "next", "prev", "prev", "view", "protocol", "pin", null,
    ]);
  });

  it("leaves modified keys to the browser and typing alone", () => {
    expect(presenterKey({ key: "p", ctrlKey: true }, body)).toBeNull();
    expect(presenterKey({ key: " " }, { tagName: "INPUT", type: "text" })).toBeNull();
  });
});

describe("agents lighting up", () => {
  it("lights the newest message's sender as sending and its recipients as receiving", () => {
    const messages = [
      msg("a", 1, { from: "leader", to: ["strategist"] }),
      msg("b", 2, { from: "strategist", to: ["leader"], cc: ["evaluator"] }),
    ];
    expect(agentLights(messages)).toEqual([
      { name: "leader", light: "receiving" },
      { name: "strategist", light: "sending" },
      { name: "evaluator", light: "receiving" },
    ]);
  });

  it("lights nobody in an empty thread", () => {
    expect(agentLights([])).toEqual([]);
  });
});

describe("the ticker", () => {
  it("keeps the newest few, newest first, a changed message replacing its old self", () => {
    const before = [msg("b", 2), msg("a", 1)];
    const after = mergeTicker(before, { items: [msg("c", 3), msg("a", 1, { status: "delivered" })] }, 2);
    expect(after.map((m) => m.key)).toEqual(["c", "b"]);
    expect(mergeTicker(before, { items: [msg("a", 1, { status: "delivered" })] }).find((m) => m.key === "a")?.status).toBe("delivered");
  });

  it("drops removed messages", () => {
    expect(mergeTicker([msg("b", 2), msg("a", 1)], { items: [], removed: ["b"] }).map((m) => m.key)).toEqual(["a"]);
  });
});
