// One line for both test runners, read from their JSON reports:
//   node scripts/test-summary.mjs <vitest.json> <playwright.json> [why a runner did not run…]
// prints "N passed, N failed" (", N skipped" when any) and exits 1 when anything failed. A
// report that is missing (its runner did not run, or died before writing it: a build that broke)
// counts as one failure, so nothing fails silently; the reasons after the reports say why.
import fs from "node:fs";

function read(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

/** Vitest's JSON (Jest's shape). A file that failed outside any test (it did not load) counts as one failure. */
function vitestCounts(report) {
  if (!report) return { passed: 0, failed: 1, skipped: 0, notes: ["unit tests: no report (vitest did not finish)"] };
  const brokenFiles = (report.testResults ?? []).filter(
    (f) => f.status === "failed" && !(f.assertionResults ?? []).some((a) => a.status === "failed"),
  );
  return {
    passed: report.numPassedTests ?? 0,
    failed: (report.numFailedTests ?? 0) + brokenFiles.length,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
    notes: brokenFiles.map((f) => `unit tests: ${f.name} failed to run: ${(f.message ?? "").split("\n")[0]}`),
  };
}

/** Playwright's JSON: stats, plus errors outside any test (the web server did not start). */
function playwrightCounts(report) {
  if (!report) return { passed: 0, failed: 1, skipped: 0, notes: ["browser tests: no report (Playwright did not run or finish)"] };
  const stats = report.stats ?? {};
  const errors = report.errors ?? [];
  return {
    passed: (stats.expected ?? 0) + (stats.flaky ?? 0),
    failed: (stats.unexpected ?? 0) + errors.length,
    skipped: stats.skipped ?? 0,
    notes: errors.map((e) => `browser tests: ${(e.message ?? "").split("\n")[0]}`),
  };
}

const [vitestFile, playwrightFile, ...failedSteps] = process.argv.slice(2);
const parts = [vitestCounts(read(vitestFile)), playwrightCounts(read(playwrightFile))];
const sum = (k) => parts.reduce((n, p) => n + p[k], 0);
for (const note of parts.flatMap((p) => p.notes)) console.log(note);
for (const step of failedSteps) console.log(`not run: ${step}`);
const [unit, browser] = parts;
console.log(`unit: ${unit.passed} passed, ${unit.failed} failed; browser: ${browser.passed} passed, ${browser.failed} failed`);
const skipped = sum("skipped");
console.log(`${sum("passed")} passed, ${sum("failed")} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(sum("failed") > 0 ? 1 : 0);
