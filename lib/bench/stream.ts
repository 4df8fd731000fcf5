// `npm run bench -- --stream`: one KickLang channel pre-filled to 100 MB, the production server
// started on it, then 1,000 appends a second for 30 s, twice. First with the timeline's own poll
// (every pollMs, as the UI asks): what a user waits, the server's CPU and the bytes it reads.
// Then with a tight poll (every 50 ms): the server-side lag from a write to the journal showing it.
// Then 10 s more with strace counting the server's reads of the channel file, so re-reads show.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEFAULT_POLL_MS, PAGE_SIZE } from "@/lib/client/config";
import { machineCpuTicks, percentile, stealShare, timedJson, treeCpuSeconds, treeReadBytes, treeRssMb } from "./measure";
import { base, ensureBuild, progress, projectDir, sleep, startServer, timeFirstIngest, waitFor, type Server } from "./server";
import { readsDuring } from "./read-attribution";
import { appendAtRate, ChannelWriter, prefillChannel } from "./stream-channel";

/** channelReadRatio: bytes of the channel read per byte appended; each read also reads the file's first bytes again (is it the same file?). */
export const STREAM_BUDGETS = { lagP95Ms: 500, cpuPercent: 30, channelReadRatio: 1.5 };

export interface StreamOptions {
  megabytes: number;
  lineBytes: number;
  /** Reports per dispatch: an append settles its whole thread again, so this sets what each costs. */
  thread: number;
  perSecond: number;
  seconds: number;
  tightPollMs: number;
}

type Page = { items: { messageId: string | null }[]; seq: number; more?: boolean };

interface Seen {
  /** ms from each envelope's write to the poll answer that held it. */
  latencies: number[];
  /** Envelopes never held by a poll answer (the UI's overflow replaced them by the newest page, or they never came). */
  missed: number;
}

const pct = (values: number[]) => ({ p50: percentile(values, 50), p95: percentile(values, 95), max: values.length ? Math.max(...values) : NaN });

/**
 * Polls as the timeline does while `writer` appends, until a poll sent after `drained()` (every
 * append journaled) has nothing more. `ui`: the UI's request (its default page; on `more` it loads
 * the newest page, as the timeline's overflow does); otherwise pages of 500, followed at once.
 */
async function watch(writer: ChannelWriter, since: number, everyMs: number, ui: boolean, drained: () => boolean): Promise<Seen> {
  const latencies: number[] = [];
  const seen = new Set<string>();
  const take = (page: Page, at: number) => {
    for (const { messageId } of page.items) {
      const written = messageId === null ? undefined : writer.writtenAt.get(messageId);
      if (messageId !== null && written !== undefined && !seen.has(messageId)) {
        seen.add(messageId);
        latencies.push(at - written);
      }
    }
  };
  let seq = since;
  for (;;) {
    const last = drained();
    const started = performance.now();
    const page = (await timedJson(`${base}/api/messages?since=${seq}${ui ? "" : "&limit=500"}`)).body as Page;
    take(page, performance.now());
    seq = page.seq;
    if (page.more && ui) {
      const newest = (await timedJson(`${base}/api/messages?limit=${PAGE_SIZE}`)).body as Page;
      take(newest, performance.now());
      seq = Math.max(seq, newest.seq);
    } else if (last && !page.more) break;
    if (!page.more || ui) await sleep(Math.max(0, everyMs - (performance.now() - started)));
  }
  return { latencies, missed: writer.writtenAt.size - seen.size };
}

/**
 * A probe that is true once every appended envelope has been in a poll answer since `seq`: the
 * poll's own O(change) read, in pages of 500, at most 4 times a second once caught up. Not
 * /api/stats, whose counts over the whole journal, asked for every 50 ms, made the server read
 * gigabytes and spend its CPU on the bench.
 */
function allJournaled(writer: ChannelWriter, seq: number): () => Promise<true | null> {
  const seen = new Set<string>();
  let since = seq;
  return async () => {
    for (;;) {
      const page = (await timedJson(`${base}/api/messages?since=${since}&limit=500`)).body as Page;
      for (const { messageId } of page.items) if (messageId !== null && writer.writtenAt.has(messageId)) seen.add(messageId);
      since = page.seq;
      if (seen.size >= writer.writtenAt.size) return true;
      if (!page.more) break;
    }
    await sleep(200);
    return null;
  };
}

/**
 * True once the last envelope appended is in the journal: one indexed lookup a probe. The channel
 * is one file read in order, so the last one journaled means every one before it was read. The
 * window's CPU ends there; allJournaled checks every envelope after it. Before, that check ran
 * inside the window: reading 30,000 envelopes back in pages of 500 cost the server about 1.5 of
 * the window's 11-13 CPU-seconds (profiled), work no browser does.
 */
function lastJournaled(writer: ChannelWriter): () => Promise<true | null> {
  const last = [...writer.writtenAt.keys()].at(-1);
  return async () => {
    if (last === undefined) return true;
    const page = (await timedJson(`${base}/api/messages?q=${encodeURIComponent(`mid:${last}`)}&limit=1`)).body as Page;
    if (page.items.length > 0) return true;
    await sleep(200);
    return null;
  };
}

/** Runs a window's appends, and its wait until they are journaled, inside something (a trace), or as they are. */
type Around = (appending: () => Promise<void>) => Promise<void>;

/** One window of appends: what the poller saw, and the server's CPU and bytes read from the first append until the last is journaled. */
async function appendWindow(server: Server, file: string, requests: string[], o: StreamOptions, everyMs: number, ui: boolean, around: Around = (f) => f()) {
  const writer = new ChannelWriter(file, requests);
  const { seq } = (await timedJson(`${base}/api/messages?limit=1`)).body as Page;
  const cpu0 = treeCpuSeconds(server.pid);
  const read0 = treeReadBytes(server.pid);
  const machine0 = machineCpuTicks();
  const t0 = performance.now();
  let drained = false;
  const seen = watch(writer, seq, everyMs, ui, () => drained);
  seen.catch(() => {}); // awaited below; a failed poll must not end the process before then
  await around(async () => {
    await appendAtRate(writer, o.perSecond, o.seconds);
    writer.close();
    // Generous: how far behind the journal falls is itself the finding.
    await waitFor(lastJournaled(writer), 600_000, "the last appended envelope journaled", server);
  });
  const seconds = (performance.now() - t0) / 1000;
  const cpuPercent = (100 * (treeCpuSeconds(server.pid) - cpu0)) / seconds;
  // Unchanged code measured 38-43 % of a core in three runs here in one morning, and one build of
  // it 40 % and 48 % in two: how much of the machine its host took meanwhile says which to believe.
  const steal = stealShare(machine0, machineCpuTicks());
  const read1 = treeReadBytes(server.pid);
  const readBytes = read0 === null || read1 === null ? null : read1 - read0;
  await waitFor(allJournaled(writer, seq), 600_000, "every appended envelope journaled", server);
  drained = true;
  const result = await Promise.race([seen, sleep(60_000).then(() => null)]);
  if (!result) throw new Error("the poller did not see the appended envelopes within 60 s of their being journaled");
  return { appended: writer.writtenAt.size, appendedBytes: writer.bytes, seconds, cpuPercent, steal, readBytes, ...pct(result.latencies), seen: result.latencies.length, missed: result.missed };
}

export type StreamWindow = Awaited<ReturnType<typeof appendWindow>>;

export async function benchStream(o: StreamOptions, pollMs: number) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-bench-stream-"));
  const ws = path.join(work, "workspace");
  let server: Server | null = null;
  try {
    console.log(`Pre-filling a KickLang channel to ${o.megabytes} MB in ${ws} …`);
    const filled = prefillChannel(ws, o.megabytes * 1024 * 1024, o.lineBytes, o.thread);
    ensureBuild();
    const t = performance.now();
    server = startServer(ws, path.join(work, "data"));
    const ingest = await timeFirstIngest(server, filled.messages, t);
    progress(`${filled.messages} envelopes listed after ${(ingest.listedMs / 1000).toFixed(1)} s, full text after ${(ingest.fullTextMs / 1000).toFixed(1)} s`);
    const ui = await appendWindow(server, filled.file, filled.requests, o, pollMs, true);
    progress(`UI poll: p95 ${ui.p95.toFixed(0)} ms, CPU ${ui.cpuPercent.toFixed(0)}%`);
    const tight = await appendWindow(server, filled.file, filled.requests, o, o.tightPollMs, false);
    progress(`tight poll: lag p95 ${tight.p95.toFixed(0)} ms`);
    // A third, shorter window under strace (which slows the server): the bytes read, file by file.
    let reads: Map<string, number> | null = null;
    const traced = { ...o, seconds: Math.min(o.seconds, 10) };
    const attributed = await appendWindow(server, filled.file, filled.requests, traced, pollMs, true, async (appending) => {
      reads = await readsDuring(server?.pid ?? 0, path.join(work, "reads.trace"), appending, [filled.file]);
    });
    const channelRead = reads === null ? null : ((reads as Map<string, number>).get(filled.file) ?? 0);
    const byFile = channelRead === null ? null : { channel: channelRead, other: attributed.readBytes === null ? null : attributed.readBytes - channelRead };
    const rssMb = treeRssMb(server.pid);
    await server.stop();
    server = null;
    const result = {
      command: ["npm run bench --", ...process.argv.slice(2)].join(" "),
      machine: { cores: os.cpus().length, cpu: os.cpus()[0]?.model ?? "?", node: process.version },
      options: o, pollMs, channelBytes: filled.bytes, prefilledMessages: filled.messages, ingest, ui, tight, rssMb,
      traced: byFile && { seconds: traced.seconds, appendedBytes: attributed.appendedBytes, ...byFile },
    };
    fs.mkdirSync(path.join(projectDir, "bench-results"), { recursive: true });
    fs.writeFileSync(path.join(projectDir, "bench-results", `bench-stream-${o.megabytes}mb.json`), JSON.stringify(result, null, 2));
    return result;
  } finally {
    await server?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Prints the table; returns the budgets missed (none: an empty list). */
export function reportStream(r: Awaited<ReturnType<typeof benchStream>>): string[] {
  const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
  const f = (ms: number) => `${ms.toFixed(0)} ms`;
  const { ui, tight, options: o } = r;
  const missed: string[] = [];
  console.log(`\nMailroom bench --stream: ⫻report/status pre-filled to ${mb(r.channelBytes)} (${r.prefilledMessages} messages, threads of ${o.thread} reports), then ${o.perSecond} appends/s for ${o.seconds} s; ${r.machine.cores} cores (${r.machine.cpu})`);
  console.log(`first ingest: listed ${(r.ingest.listedMs / 1000).toFixed(1)} s, full text ${(r.ingest.fullTextMs / 1000).toFixed(1)} s`);
  console.log(`UI poll every ${r.pollMs} ms: visible after      p50 ${f(ui.p50)}  p95 ${f(ui.p95)}  max ${f(ui.max)} (budget poll + 500 = ${r.pollMs + 500} ms; ${ui.seen} seen in a poll, ${ui.missed} only behind the overflow notice)`);
  console.log(`tight poll every ${o.tightPollMs} ms: journal lag     p50 ${f(tight.p50)}  p95 ${f(tight.p95)}  max ${f(tight.max)} (budget p95 ${STREAM_BUDGETS.lagP95Ms} ms; ${tight.seen} of ${tight.appended} seen)`);
  for (const [name, w] of [["UI poll", ui], ["tight poll", tight]] as const) {
    const read = w.readBytes === null ? "not readable here" : mb(w.readBytes);
    const stolen = w.steal === null ? "" : ` (${(w.steal * 100).toFixed(1)} % of the machine's CPU stolen by its host meanwhile)`;
    console.log(`server while appending (${name}, ${w.seconds.toFixed(1)} s): CPU ${w.cpuPercent.toFixed(0)}% of one core${stolen}; bytes read by any call (rchar) ${read} for ${mb(w.appendedBytes)} appended`);
  }
  const t = r.traced;
  if (t) {
    console.log(`traced ${t.seconds} s of appends (strace, by file): the channel ${mb(t.channel)}, ${(t.channel / t.appendedBytes).toFixed(2)}× the ${mb(t.appendedBytes)} appended (budget ${STREAM_BUDGETS.channelReadRatio}×; reading it again would add ${mb(r.channelBytes)}); everything else (rchar less that: the journal, sockets) ${t.other === null ? "?" : mb(t.other)}`);
  } else console.log("strace is not available or may not attach here: which file the bytes came from is not known, so re-reads are not checked");
  console.log(`server RSS after the appends: ${r.rssMb.toFixed(0)} MB`);
  if (!(tight.p95 <= STREAM_BUDGETS.lagP95Ms) || tight.missed > 0) missed.push(`journal lag p95 ${f(tight.p95)} (budget ${STREAM_BUDGETS.lagP95Ms} ms)${tight.missed ? `, ${tight.missed} never seen` : ""}`);
  if (!(ui.p95 <= r.pollMs + 500)) missed.push(`UI-visible p95 ${f(ui.p95)} (budget ${r.pollMs + 500} ms)`);
  if (!(ui.cpuPercent <= STREAM_BUDGETS.cpuPercent)) missed.push(`server CPU ${ui.cpuPercent.toFixed(0)}% (budget ${STREAM_BUDGETS.cpuPercent}%)`);
  if (t && t.channel > STREAM_BUDGETS.channelReadRatio * t.appendedBytes) missed.push(`the server read ${mb(t.channel)} of the channel while ${mb(t.appendedBytes)} were appended: old bytes were read again`);
  for (const m of missed) console.log(`OVER BUDGET: ${m}`);
  return missed;
}

/** The client's poll interval as the server configures it (MAILROOM_POLL_MS, else the default). */
export function uiPollMs(): number {
  const v = Number(process.env.MAILROOM_POLL_MS ?? DEFAULT_POLL_MS);
  return Number.isFinite(v) && v > 0 ? v : DEFAULT_POLL_MS;
}
