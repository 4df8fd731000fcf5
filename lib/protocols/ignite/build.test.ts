// The builder must reproduce what the IGNITE tools wrote in the fixture, byte for byte.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixturePath } from "@/lib/testing/fixtures";
import {
  buildDeadLetter, buildEscalation, buildMessage, getHeader, isoWithOffset, markProcessing,
  markRetrying, messageFileName, newMessageId, removeHeader, retryBackoffSeconds, retryCountOf,
  rfc2822Date, setHeader,
} from "./build";

const IGNITE = fixturePath("ignite", "workspace", ".ignite");

// The fixture was written in +09:00, and dates are formatted in the process's zone.
const previousTZ = process.env.TZ;
beforeAll(() => {
  process.env.TZ = "Asia/Tokyo";
});
afterAll(() => {
  if (previousTZ === undefined) delete process.env.TZ;
  else process.env.TZ = previousTZ;
});
const fixture = (rel: string) => readFileSync(path.join(IGNITE, rel), "utf8");
/** A fixture time: "2026-11-20T09:30:00" in +09:00. */
const jst = (local: string) => new Date(`2026-11-20T${local}+09:00`);
/** The body exactly as the fixture file holds it. */
const bodyOf = (text: string) => text.slice(text.indexOf("\n\n") + 2);

describe("dates, ids and names", () => {
  it("formats RFC 2822 and ISO 8601 in the local offset", () => {
    expect(rfc2822Date(jst("09:59:45"))).toBe("Fri, 20 Nov 2026 09:59:45 +0900");
    expect(rfc2822Date(new Date("2026-11-01T00:00:05+09:00"))).toBe("Sun, 01 Nov 2026 00:00:05 +0900");
    expect(isoWithOffset(jst("09:59:45"))).toBe("2026-11-20T09:59:45+09:00");
  });

  it("makes Message-IDs of the make_msgid shape", () => {
    const id = newMessageId(new Date(1795136385847), 40268, () => 3103334009441696043n);
    expect(id).toBe("<179513638584.40268.3103334009441696043@ignite.local>");
    expect(newMessageId(new Date(), 1)).toMatch(/^<\d{12,}\.1\.\d{1,20}@ignite\.local>$/);
  });

  it("names files {type}_{16-digit usec}.mime", () => {
    expect(messageFileName("user_goal", new Date(1795134600214), 337)).toBe("user_goal_1795134600214337.mime");
    expect(() => messageFileName("../x", new Date())).toThrow();
  });
});

describe("buildMessage", () => {
  it("rebuilds the fixture's user_goal, then its lifecycle headers", () => {
    const original = fixture("queue/leader/processed/user_goal_1795134600214337.mime");
    const built = buildMessage({
      from: "user", to: ["leader"], type: "user_goal", priority: "high", threadId: "thr_readme_42",
      repository: "owner/repo", issue: 42, body: bodyOf(original), date: jst("09:30:00"),
      messageId: "<179513460025.38848.12394754030115323195@ignite.local>",
    });
    const processing = markProcessing(built, jst("09:30:05"));
    expect(getHeader(processing, "X-IGNITE-Status")).toBe("processing");
    expect(setHeader(processing, "X-IGNITE-Status", "delivered")).toBe(original);
  });

  it("rebuilds a reply with In-Reply-To", () => {
    const original = fixture("queue/leader/evaluation_result_1795136390012877.mime");
    const built = buildMessage({
      from: "evaluator", to: ["leader"], type: "evaluation_result", threadId: "thr_readme_42",
      inReplyTo: "<179513609241.40031.74602887591896938@ignite.local>", repository: "owner/repo",
      issue: "42", body: bodyOf(original), date: jst("09:59:50"),
      messageId: "<179513639005.40273.7277753245944047465@ignite.local>",
    });
    expect(built).toBe(original);
  });

  it("orders Cc and Status as the builder does and adds no trailing newline", () => {
    const text = buildMessage({
      from: "leader", to: ["a", "b"], cc: ["c"], type: "note", status: "queued", body: "x: 1",
      date: jst("10:00:00"), messageId: "<1.2.3@ignite.local>",
    });
    expect(text).toBe(
      "MIME-Version: 1.0\nMessage-ID: <1.2.3@ignite.local>\nFrom: leader\nTo: a, b\nCc: c\n" +
        "Date: Fri, 20 Nov 2026 10:00:00 +0900\nX-IGNITE-Type: note\nX-IGNITE-Priority: normal\n" +
        "X-IGNITE-Status: queued\nContent-Type: text/x-yaml; charset=utf-8\n" +
        "Content-Transfer-Encoding: 8bit\n\nx: 1",
    );
  });

  it("refuses CR, LF and NUL in header values", () => {
    const base = { from: "leader", to: ["coordinator"], type: "note", body: "" };
    expect(() => buildMessage({ ...base, from: "leader\nX-Evil: 1" })).toThrow(/CR, LF or NUL/);
    expect(() => buildMessage({ ...base, threadId: "t\r1" })).toThrow();
    expect(() => buildMessage({ ...base, repository: "a\0b" })).toThrow();
    expect(() => buildMessage({ ...base, to: [] })).toThrow();
    expect(() => buildMessage({ ...base, to: ["a,b"] })).toThrow();
  });
});

describe("header editing", () => {
  const text = "A: 1\nB: 2\nC: 3\n\nbody\n\nmore: yes\n";

  it("replaces in place, appends after the last header, leaves the body alone", () => {
    expect(setHeader(text, "B", "two")).toBe("A: 1\nB: two\nC: 3\n\nbody\n\nmore: yes\n");
    expect(setHeader(text, "D", "4")).toBe("A: 1\nB: 2\nC: 3\nD: 4\n\nbody\n\nmore: yes\n");
    expect(removeHeader(setHeader(text, "D", "4"), "D")).toBe(text);
    expect(removeHeader(text, "B")).toBe("A: 1\nC: 3\n\nbody\n\nmore: yes\n");
  });

  it("matches names case-sensitively and reads values as parse does", () => {
    expect(setHeader(text, "b", "x")).toBe("A: 1\nB: 2\nC: 3\nb: x\n\nbody\n\nmore: yes\n");
    expect(getHeader(text, "b")).toBeNull();
    expect(getHeader("A:  spaced  \nB: x\n\tfolded\nA: later\n\nA: body", "A")).toBe("later");
    expect(getHeader("A: 1\nB: x\n\tfolded\n\n", "B")).toBe("x folded");
    expect(getHeader(text, "more")).toBeNull();
  });

  it("reads CRLF files and writes LF headers back, as upstream does", () => {
    expect(setHeader("A: 1\r\nB: 2\r\n\r\nbody\r\n", "B", "3")).toBe("A: 1\nB: 3\n\nbody\r\n");
  });

  it("refuses CR, LF and NUL in values and odd names", () => {
    expect(() => setHeader(text, "X-IGNITE-Status", "ok\nX-Evil: 1")).toThrow(/CR, LF or NUL/);
    expect(() => setHeader(text, "X-IGNITE-Status", "a\rb")).toThrow();
    expect(() => setHeader(text, "X-IGNITE-Status", "a\0b")).toThrow();
    expect(() => setHeader(text, "Bad Name", "x")).toThrow();
  });
});

describe("retry and dead letters", () => {
  const assignment = () => {
    const dlq = fixture("queue/dead_letter/task_assignment_1795135151004518_dlq_1795136385.mime");
    const embedded = dlq.slice(dlq.indexOf("original_message: |\n") + 20);
    const body = bodyOf(embedded.split("\n").map((l) => l.slice(2)).join("\n")) + "\n";
    return buildMessage({
      from: "coordinator", to: ["ignitian_2"], type: "task_assignment", priority: "high",
      threadId: "thr_readme_42", inReplyTo: "<179513500455.39158.2235934012667247672@ignite.local>",
      repository: "owner/repo", issue: "42", body, date: jst("09:39:11"),
      messageId: "<179513515104.39292.12328985817850960367@ignite.local>",
    });
  };

  it("replays three timeouts and rebuilds the fixture's dead letter byte for byte", () => {
    let text = markProcessing(assignment(), jst("09:39:15"));
    const retries: [string, string, string][] = [
      ["09:44:15", "09:44:17", "09:44:25"],
      ["09:49:25", "09:49:33", "09:49:35"],
      ["09:54:35", "09:54:52", "09:54:45"],
    ];
    for (const [at, next, pickup] of retries) {
      text = markRetrying(text, jst(at), jst(next));
      expect(getHeader(text, "X-IGNITE-Status")).toBe("retrying");
      text = markProcessing(text, jst(pickup));
    }
    expect(retryCountOf(text)).toBe(3);
    const dead = buildDeadLetter(text, "task_assignment_1795135151004518.mime", {
      retryCount: 3, maxRetries: 3, lastError: "timeout after 3 retries", movedAt: jst("09:59:45"),
      messageId: "<179513638584.40268.3103334009441696043@ignite.local>",
    });
    expect(dead).toBe(fixture("queue/dead_letter/task_assignment_1795135151004518_dlq_1795136385.mime"));
  });

  it("removes Error-* headers on retry", () => {
    let text = setHeader(assignment(), "X-IGNITE-Status", "error");
    text = setHeader(setHeader(text, "X-IGNITE-Error-Reason", "boom"), "X-IGNITE-Error-At", "now");
    text = markRetrying(text, jst("10:00:00"), jst("10:00:03"));
    expect(getHeader(text, "X-IGNITE-Error-Reason")).toBeNull();
    expect(getHeader(text, "X-IGNITE-Error-At")).toBeNull();
    expect(getHeader(text, "X-IGNITE-Retry-Count")).toBe("1");
    expect(getHeader(text, "X-IGNITE-Next-Retry-After")).toBe("2026-11-20T10:00:03+09:00");
  });

  it("backs off with full jitter within [0, min(300, 5 × 2^n)]", () => {
    expect(retryBackoffSeconds(0, () => 0.999999)).toBe(5);
    expect(retryBackoffSeconds(2, () => 0.5)).toBe(10);
    expect(retryBackoffSeconds(9, () => 0.999999)).toBe(300);
    expect(retryBackoffSeconds(1, () => 0)).toBe(0);
  });

  it("rebuilds the fixture's escalation byte for byte", () => {
    const built = buildEscalation({
      failureReason: "timeout after 3 retries", retryCount: 3, maxRetries: 3,
      dlqPath: "/home/user/readme-demo/.ignite/queue/dead_letter/", date: jst("09:59:45"),
      messageId: "<179513638594.40274.12397907114097585659@ignite.local>",
    });
    expect(built).toBe(fixture("queue/leader/escalation_1795136385.mime"));
  });
});
