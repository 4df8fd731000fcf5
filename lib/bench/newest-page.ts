// "Time to a correct newest page": the timeline's first request (GET /api/messages, no filter)
// polled from the server's spawn while its first scan runs, each answer then compared with the
// newest page once the scan is done. Correct = the same messages in the same order as that page.
// Both times are when an answer came back, not when its request went out: a request sent before
// the server's start stamps arrivals is held until the start is done and answered 503 "starting"
// (lib/server/arrival.ts), and one sent just after is held as long and answered. Timed from the
// sending, the first answer moved by up to a second with the poll's phase (0.35–1.41 s from spawn,
// five runs of one build at a million files); timed from the answers, it does not.
import { percentile, timedJson } from "./measure";
import { base, sleep } from "./server";

/** Between polls: often enough to time the figure to a tenth of a second, seldom enough not to load a 2-core server. */
const POLL_GAP_MS = 100;

interface Answer {
  /** When the answer came back, from `since`. */
  at: number;
  ms: number;
  page: string;
  loading: boolean;
}

/** The page as a reader sees it: every field of every row but seq, the journal's own change counter. */
const pageOf = (body: unknown) => JSON.stringify((body as { items: { seq?: number }[] }).items.map(({ seq: _seq, ...shown }) => shown));

/** Start polling now; `finish()` (once the scan is done) stops and reads the figures, all from `since`. */
export function watchNewestPage(since: number) {
  const answers: Answer[] = [];
  let stopped = false;
  const polling = (async () => {
    while (!stopped) {
      const r = await timedJson(`${base}/api/messages`).catch(() => null);
      if (r) answers.push({ at: performance.now() - since, ms: r.ms, page: pageOf(r.body), loading: (r.body as { loading?: unknown }).loading !== undefined });
      await sleep(POLL_GAP_MS);
    }
  })();
  return {
    async finish() {
      stopped = true;
      await polling;
      const final = pageOf((await timedJson(`${base}/api/messages`)).body);
      // Correct from the first answer after which every answer was the final page.
      let firstCorrect = answers.length;
      while (firstCorrect > 0 && answers[firstCorrect - 1]?.page === final) firstCorrect--;
      const duringLoad = answers.filter((a) => a.loading).map((a) => a.ms);
      return {
        firstAnswerMs: answers[0]?.at ?? NaN,
        correctNewestMs: answers[firstCorrect]?.at ?? NaN,
        pagesDuringLoad: duringLoad.length,
        pageDuringLoadP50: percentile(duringLoad, 50),
        pageDuringLoadMax: duringLoad.length > 0 ? Math.max(...duringLoad) : NaN,
      };
    },
  };
}

export type NewestPage = Awaited<ReturnType<ReturnType<typeof watchNewestPage>["finish"]>>;

/** The newest page's correct answer is due this long after the server's first answer at most (issue 28). */
export const NEWEST_PAGE_BUDGET_MS = 1000;

/** The newest page's figure, beside "listed": from spawn, and after the server's first answer (budget 1 s). */
export function newestPageLine(indent: string, n: NewestPage): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  return `${indent}time to a correct newest page (from spawn) ${s(n.correctNewestMs)}, ${s(n.correctNewestMs - n.firstAnswerMs)} after the first answer (budget ${s(NEWEST_PAGE_BUDGET_MS)}); ` +
    `page during the load p50 ${n.pageDuringLoadP50.toFixed(1)} ms, max ${n.pageDuringLoadMax.toFixed(1)} ms (${n.pagesDuringLoad} polls)`;
}
