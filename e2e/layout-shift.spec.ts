import type { Page } from "@playwright/test";
import { expect, interactive, test } from "./fixtures";

// What moves once a page is interactive: every layout shift from hydration on, summed as the
// browser's Cumulative Layout Shift counts it. A list that moved under a click lost that click (a
// UTC date swapped for its age after hydration; the overview's team health drawn only then).
declare global {
  interface Window { mailroomShifts: { at: number; value: number }[] }
}

const PAGES = ["/", "/messages", "/threads", "/dead-letters", "/agents", "/logs", "/present"];
/**
 * Web Vitals' "good" for a whole visit. What is left under it: the ages of messages other specs wrote
 * seconds before, which change text between the server's render and hydration (0.06-0.07 in CI runs).
 * What this guards was over it: the overview's late health (0.13, 0.48 on a phone), ages swapped for
 * UTC dates (0.24 on /agents at 390 px).
 */
const MOST = 0.1;

async function shiftSinceHydrated(page: Page, url: string): Promise<number> {
  await page.goto(url);
  await interactive(page);
  // The first polls answer within this; what moves later is news, not the page settling.
  await page.waitForTimeout(1500);
  return page.evaluate(() => {
    const hydratedAt = performance.getEntriesByName("mailroom:hydrated")[0]?.startTime ?? 0;
    return window.mailroomShifts.filter((s) => s.at >= hydratedAt).reduce((n, s) => n + s.value, 0);
  });
}

for (const width of [1280, 390]) {
  test(`nothing moves once a page is interactive, ${width} px wide`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.addInitScript(() => {
      window.mailroomShifts = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
          if (!e.hadRecentInput) window.mailroomShifts.push({ at: e.startTime, value: e.value });
        }
      }).observe({ type: "layout-shift", buffered: true });
      // Marked in the task that sets the attribute, before the frame that draws what hydration changed.
      new MutationObserver((_, observer) => {
        if (!document.documentElement.dataset.hydrated) return;
        performance.mark("mailroom:hydrated");
        observer.disconnect();
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-hydrated"] });
    });
    for (const url of PAGES) expect(await shiftSinceHydrated(page, url), `${url} moved once interactive`).toBeLessThan(MOST);
  });
}
