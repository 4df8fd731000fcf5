// The figures of `npm run bench -- --stages` (lib/bench/stages.ts): each stage of a first ingest
// timed alone, beside its floor (the simplest thing that does the same work), and the table.
// Pure but for the clock: the tests check the arithmetic on made-up figures.

/** What a piece of work cost: wall time, and this process's CPU time (every thread: user + system). */
export interface Cost {
  wallMs: number;
  cpuMs: number;
}

/**
 * Run `fn` and time it. CPU beside wall because wall time is noisy on a shared 2-core machine: a
 * stage that waits for the CPU loses wall time, not CPU time.
 */
export async function measure<T>(fn: () => T | Promise<T>): Promise<Cost & { value: T }> {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const value = await fn();
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return { value, wallMs, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/** One stage as measured: how many items it did, Mailroom's cost and its floor's (null: none). */
export interface StageFigures {
  stage: string;
  /** Items the stage handled (files, records, rows): the same for Mailroom and its floor. */
  count: number;
  mailroom: Cost;
  floor: Cost | null;
  /** Items the floor handled: should be `count` (else the two did not do the same work). */
  floorCount: number | null;
  /** What the floor is, in a few words. */
  floorIs: string;
}

export interface StageLine extends StageFigures {
  /** Mailroom's wall time over the floor's; null without a floor (or one too fast to time). */
  ratio: number | null;
  cpuRatio: number | null;
  /** This stage's part of all the stages' wall time, and of their CPU time (0..1). */
  share: number;
  cpuShare: number;
}

const over = (a: number, b: number | undefined) => (b !== undefined && b > 0 ? a / b : null);
const part = (a: number, whole: number) => (whole > 0 ? a / whole : 0);

/** Ratios and shares. The shares are of the stages' sum: timed alone, the stages do not overlap. */
export function tabulate(stages: readonly StageFigures[]): StageLine[] {
  const wall = stages.reduce((n, s) => n + s.mailroom.wallMs, 0);
  const cpu = stages.reduce((n, s) => n + s.mailroom.cpuMs, 0);
  return stages.map((s) => ({
    ...s,
    ratio: over(s.mailroom.wallMs, s.floor?.wallMs),
    cpuRatio: over(s.mailroom.cpuMs, s.floor?.cpuMs),
    share: part(s.mailroom.wallMs, wall),
    cpuShare: part(s.mailroom.cpuMs, cpu),
  }));
}

/** The stages' sums, Mailroom's and the floors' (a stage without a floor counts as its own). */
export function totals(lines: readonly StageLine[]): { mailroom: Cost; floor: Cost } {
  const sum = (pick: (l: StageLine) => Cost) =>
    lines.reduce((n, l) => ({ wallMs: n.wallMs + pick(l).wallMs, cpuMs: n.cpuMs + pick(l).cpuMs }), { wallMs: 0, cpuMs: 0 });
  return { mailroom: sum((l) => l.mailroom), floor: sum((l) => l.floor ?? l.mailroom) };
}

/** The whole first ingest as the server runs it (lib/ingest/scan.ts, then the full-text fill). */
export interface WholeIngest {
  /** Until every message is listed and filterable: scanSource, indexes built. */
  listed: Cost;
  /** Until full-text search is ready, from the same start. */
  fullText: Cost;
  /** Worker threads that loaded (0: the main thread did). */
  workers: number;
  /** scanSource's own account (ms): listing, load, indexes, dead letters. */
  load: { listMs: number; loadMs: number; indexMs: number; deadLettersMs: number } | null;
}

const ms = (n: number) => `${n.toFixed(0)}`.padStart(8);
const times = (r: number | null) => (r === null ? "—" : `${r.toFixed(1)}×`).padStart(7);
const pct = (r: number) => `${(100 * r).toFixed(0)}%`.padStart(5);

/** The table's lines, as printed. */
export function formatTable(lines: readonly StageLine[], readOnceMs: number, whole: WholeIngest | null): string[] {
  const out = [
    "stage                 items   wall ms  floor ms  ratio    CPU ms  floor CPU  ratio  share (wall, CPU)",
    ...lines.map((l) =>
      `${l.stage.padEnd(18)}${`${l.count}`.padStart(9)}${ms(l.mailroom.wallMs)}${l.floor ? ms(l.floor.wallMs) : "       —"}  ${times(l.ratio)}` +
      `${ms(l.mailroom.cpuMs)}${l.floor ? `${ms(l.floor.cpuMs)}   ` : "       —   "}${times(l.cpuRatio)}  ${pct(l.share)} ${pct(l.cpuShare)}`,
    ),
  ];
  const sum = totals(lines);
  out.push(`${"sum of the stages".padEnd(27)}${ms(sum.mailroom.wallMs)}${ms(sum.floor.wallMs)}  ${times(over(sum.mailroom.wallMs, sum.floor.wallMs))}` +
    `${ms(sum.mailroom.cpuMs)}${ms(sum.floor.cpuMs)}   ${times(over(sum.mailroom.cpuMs, sum.floor.cpuMs))}`);
  out.push(`warm raw read of every file (the issue's baseline): ${readOnceMs.toFixed(0)} ms; the sum of the stages is ${(sum.mailroom.wallMs / readOnceMs).toFixed(1)}× it, the floors' ${(sum.floor.wallMs / readOnceMs).toFixed(1)}×`);
  out.push(...wholeLines(whole, sum.mailroom, readOnceMs));
  if (whole) out.push(`  overlapped perfectly on ${Math.max(1, whole.workers)} thread(s), the stages' CPU would take at least ${overlapFloor(lines, whole.workers).toFixed(0)} ms (see overlapFloor)`);
  for (const l of lines) {
    const unlike = l.floorCount !== null && l.floorCount !== l.count ? ` (NOT THE SAME WORK: ${l.floorCount} items, not ${l.count})` : "";
    out.push(`  ${l.stage}: floor = ${l.floorIs}${unlike}`);
  }
  return out;
}

/**
 * The least the whole ingest could take (CPU ms of the stages, as if each had a core) with
 * `workers` threads that overlap perfectly: the listing first; then each worker reads, parses,
 * builds and inserts its own chunks, the inserts one at a time (SQLite has one writer); then the
 * indexes, the threads and the full text, each one thread's work.
 */
export function overlapFloor(lines: readonly StageLine[], workers: number): number {
  const cpu = (stage: string) => lines.find((l) => l.stage === stage)?.mailroom.cpuMs ?? 0;
  const inserts = cpu("inserting rows");
  const perChunk = cpu("reading") + cpu("parsing") + cpu("building rows") + inserts;
  const load = workers > 1 ? Math.max(perChunk / workers, inserts) : perChunk;
  return cpu("listing") + load + cpu("building indexes") + cpu("settling threads") + cpu("full text");
}

/** The whole ingest beside the stages' sum: what the worker threads overlap. */
function wholeLines(whole: WholeIngest | null, stages: Cost, readOnceMs: number): string[] {
  if (!whole) return [];
  const line = (what: string, c: Cost) =>
    `${what.padEnd(27)}${ms(c.wallMs)} ms wall (${(c.wallMs / readOnceMs).toFixed(1)}× the raw read), ${ms(c.cpuMs).trim()} ms CPU`;
  const where = whole.workers > 0 ? `${whole.workers} worker threads read, parse and insert side by side` : "on the main thread";
  const out = [
    line("whole ingest: listed", whole.listed),
    line("whole ingest: full text", whole.fullText),
    `  the stages alone add up to ${stages.wallMs.toFixed(0)} ms wall, ${stages.cpuMs.toFixed(0)} ms CPU; the whole took ` +
      `${whole.fullText.wallMs.toFixed(0)} ms wall (${where}), ${whole.fullText.cpuMs.toFixed(0)} ms CPU`,
  ];
  if (whole.load) {
    const l = whole.load;
    out.push(`  scanSource's account: listed in ${l.listMs.toFixed(0)} ms, loaded in ${l.loadMs.toFixed(0)} ms, indexes in ${l.indexMs.toFixed(0)} ms, dead letters in ${l.deadLettersMs.toFixed(0)} ms`);
  }
  return out;
}
