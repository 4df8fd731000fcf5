// Test helpers for the IGNITE v3 demo: drive a simulator on a fake clock, and check that a file has
// the exact header layout `ignite_mime.py build` writes.
import type { FakeClock } from "@/lib/demo/testing";
import { getHeader } from "../build";
import type { Simulator } from "./simulator";

/** Advance `clock` by `stepMs` per tick for `durationMs`, calling `each` after every tick. */
export function runFor(sim: Simulator, clock: FakeClock, durationMs: number, stepMs: number, each?: () => void): void {
  for (let elapsed = 0; elapsed < durationMs; elapsed += stepMs) {
    sim.tick();
    each?.();
    clock.ms += stepMs;
  }
}

/** The builder's headers, in order; headers added later may only follow them. */
const BUILDER_ORDER = [
  "MIME-Version", "Message-ID", "From", "To", "Cc", "Date", "X-IGNITE-Type", "X-IGNITE-Priority",
  "X-IGNITE-Thread-ID", "In-Reply-To", "X-IGNITE-Repository", "X-IGNITE-Issue", "X-IGNITE-Status",
  "Content-Type", "Content-Transfer-Encoding",
];

/** Problems with a file's layout ([] when it is exactly what the builder and monitor write). */
export function layoutProblems(text: string): string[] {
  const problems: string[] = [];
  const head = text.slice(0, Math.max(0, text.indexOf("\n\n")));
  if (!head) return ["no header block"];
  if (text.includes("\r")) problems.push("CR in file");
  const names = head.split("\n").map((line) => line.slice(0, line.indexOf(":")));
  const cte = names.indexOf("Content-Transfer-Encoding");
  const builderPart = names.slice(0, cte + 1);
  const expected = BUILDER_ORDER.filter((name) => builderPart.includes(name));
  // X-IGNITE-Status is either the builder's (before Content-Type) or added after the block.
  if (builderPart.join() !== expected.join()) problems.push(`header order: ${builderPart.join(", ")}`);
  for (const name of names.slice(cte + 1)) if (!name.startsWith("X-IGNITE-")) problems.push(`late header ${name}`);
  if (getHeader(text, "MIME-Version") !== "1.0") problems.push("MIME-Version");
  if (!/^<\d+\.\d+\.\d+@ignite\.local>$/.test(getHeader(text, "Message-ID") ?? "")) problems.push("Message-ID");
  if (!/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} [+-]\d{4}$/.test(getHeader(text, "Date") ?? "")) problems.push("Date");
  if (!getHeader(text, "From") || !getHeader(text, "To") || !getHeader(text, "X-IGNITE-Type")) problems.push("From/To/Type");
  if (getHeader(text, "Content-Type") !== "text/x-yaml; charset=utf-8") problems.push("Content-Type");
  if (getHeader(text, "Content-Transfer-Encoding") !== "8bit") problems.push("Content-Transfer-Encoding");
  for (const name of ["X-IGNITE-Processed-At", "X-IGNITE-Last-Retry-At", "X-IGNITE-Next-Retry-After"]) {
    const value = getHeader(text, name);
    if (value !== null && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/.test(value)) problems.push(name);
  }
  return problems;
}
