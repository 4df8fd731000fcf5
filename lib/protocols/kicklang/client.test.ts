import { expect, it } from "vitest";
import { answerCorrelation, SPACE_FORMAT_PROBLEM, spaceFormatProblem } from "./client";

it("answers a request with its own id, and keeps anything else in its thread", () => {
  // A Query inside a dispatch thread: answered by its own id (rule 3), not the thread's root.
  expect(answerCorrelation({ id: "q1", type: "Query", correlationId: "root" })).toBe("q1");
  expect(answerCorrelation({ id: "c1", type: "Command", correlationId: null })).toBe("c1");
  // An Info in the thread ("Accepted"): a reply to it stays in the thread.
  expect(answerCorrelation({ id: "i1", type: "Info", correlationId: "root" })).toBe("root");
  expect(answerCorrelation({ id: "a1", type: "Alert", correlationId: null })).toBe("a1");
  expect(answerCorrelation({ id: "x1", type: null, correlationId: null })).toBe("x1");
});

it("says when a Space Format head is wrong only by its CRLF line ending", () => {
  expect(spaceFormatProblem("⫻report/status:task/001\nDone.")).toBeNull();
  expect(spaceFormatProblem("⫻report/status:task/001\r\nDone.")).toBe(
    'The content is not a Space Format string ("⫻name/type:place/index", then lines): its first line ends in a carriage return (CRLF line endings); Space Format lines end in a line feed alone.',
  );
  expect(spaceFormatProblem("just words\r\n")).toBe(SPACE_FORMAT_PROBLEM);
});
