// The machine's CPU ticks the mixed bench reports each run's steal from.
import { expect, it } from "vitest";
import { machineCpuTicks, stealShare } from "./measure";

it("reads the machine's CPU time and what its host stole of it, where /proc/stat is", () => {
  const ticks = machineCpuTicks();
  if (process.platform !== "linux") return expect(ticks).toBeNull();
  expect(ticks!.total).toBeGreaterThan(0);
  expect(ticks!.steal).toBeGreaterThanOrEqual(0);
  expect(ticks!.steal).toBeLessThanOrEqual(ticks!.total);
});

it("gives the share stolen between two samples, and none without time between them", () => {
  expect(stealShare({ total: 1000, steal: 10 }, { total: 1400, steal: 50 })).toBe(0.1);
  expect(stealShare({ total: 1000, steal: 10 }, { total: 1000, steal: 10 })).toBeNull();
  expect(stealShare(null, { total: 1000, steal: 10 })).toBeNull();
});
