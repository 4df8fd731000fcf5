// Every page at 1600×1000 and 1280×720, light and dark: a screenshot of each (test-results/), and
// assertions on what must be visible, so a page that reads badly fails here, not only to the eye.
import type { Page } from "@playwright/test";
import { expect, test, writeDeadLetter } from "./fixtures";

const SIZES = [{ width: 1600, height: 1000 }, { width: 1280, height: 720 }] as const;
const THEMES = ["light", "dark"] as const;
const THREAD = "thr_readme_42";
/** Japanese text of the fixture's user_goal ("README.mdを整備…"). */
const JAPANESE = "整備";

/** WCAG contrast of two CSS colours (any syntax the browser knows: rgb, lab, oklch…), read back through a canvas. */
function contrastIn(page: Page, selector: string, fg: "color" | "borderColor" = "color"): Promise<number> {
  return page.evaluate(
    ({ selector, fg }) => {
      const el = document.querySelector(selector);
      if (!el) throw new Error(`no ${selector}`);
      const style = getComputedStyle(el);
      const ctx = document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
      const rgb = (css: string) => {
        ctx.clearRect(0, 0, 1, 1);
        ctx.fillStyle = css;
        ctx.fillRect(0, 0, 1, 1);
        return [...ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)];
      };
      const lum = (css: string) => {
        const [r, g, b] = rgb(css).map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4)) as [number, number, number];
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const [a, b] = [lum(style[fg]), lum(style.backgroundColor)];
      return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    },
    { selector, fg },
  );
}

/** The relative luminance of an element's background (0 black, 1 white). */
const backgroundLuminance = (page: Page, selector: string) =>
  page.evaluate((selector) => {
    const ctx = document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
    ctx.fillStyle = getComputedStyle(document.querySelector(selector)!).backgroundColor;
    ctx.fillRect(0, 0, 1, 1);
    const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data;
    return (0.2126 * r! + 0.7152 * g! + 0.0722 * b!) / 255;
  }, selector);

async function shoot(page: Page, name: string, file: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}-${file}.png`), fullPage: true });
  const width = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: document.documentElement.clientWidth }));
  expect(width.page, `${name} scrolls sideways`).toBeLessThanOrEqual(width.screen);
}

async function checkMessageList(page: Page) {
  const table = page.locator("table:has(tbody tr[data-key])").first();
  await expect(table.getByRole("row").nth(3)).toBeVisible();
  const report = await table.evaluate((t) => {
    const heads = [...t.querySelectorAll("thead th")].map((th) => ({ text: th.textContent ?? "", width: th.getBoundingClientRect().width }));
    const agentColumn = heads.findIndex((h) => h.text === "Agent / folder");
    const cut = (el: Element) => el.scrollWidth > el.clientWidth + 1;
    const rows = [...t.querySelectorAll("tbody tr[data-key]")];
    const cells = (i: number) => rows.map((r) => r.children[i]).filter((c): c is Element => !!c);
    // The preview fills what its cell leaves beside the flags: cut only when the cell has no room left.
    const previewGaps = rows.flatMap((r) => {
      const preview = r.querySelector("[data-preview]");
      const box = preview?.parentElement;
      if (!preview || !box || !cut(preview)) return [];
      const used = [...box.children].reduce((n, c) => n + c.getBoundingClientRect().width, 0) + 8 * (box.children.length - 1);
      return [box.getBoundingClientRect().width - used];
    });
    const agentsCut = agentColumn < 0 ? [] : cells(agentColumn).filter(cut).map((c) => c.textContent);
    return { heads, timesCut: cells(0).filter(cut).length, agentsCut, previewGaps };
  });
  const min: Record<string, number> = { Time: 130, Status: 100, Type: 180, "From → to": 200, "Agent / folder": 210 };
  for (const h of report.heads) if (min[h.text] !== undefined) expect(h.width, `${h.text} column`).toBeGreaterThanOrEqual(min[h.text]!);
  expect(report.timesCut, "time cells cut short").toBe(0);
  expect(report.agentsCut, "agent / folder cells cut short").toEqual([]);
  for (const gap of report.previewGaps) expect(gap, "a preview cut short beside free space").toBeLessThan(2);
}

async function checkGraph(page: Page, theme: (typeof THEMES)[number]) {
  const graph = page.getByTestId("thread-graph");
  await expect(graph.locator(".react-flow__node").first()).toBeVisible();
  await expect(graph.locator(".react-flow__minimap")).toBeVisible();
  const overlaps = await graph.evaluate((g) => {
    const boxOf = (el: Element) => el.getBoundingClientRect();
    const overlays = [...g.querySelectorAll(".react-flow__minimap, .react-flow__controls")].map(boxOf);
    const hit = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    return [...g.querySelectorAll(".react-flow__node")].filter((n) => overlays.some((o) => hit(boxOf(n), o))).map((n) => n.textContent);
  });
  expect(overlaps, "nodes under the minimap or the controls").toEqual([]);
  // The zoom buttons' icons (currentColor) against the buttons.
  expect(await contrastIn(page, ".react-flow__controls-button")).toBeGreaterThanOrEqual(3);
  const minimap = await backgroundLuminance(page, ".react-flow__minimap");
  if (theme === "dark") expect(minimap, "the minimap is a white box in dark mode").toBeLessThan(0.3);
  else expect(minimap).toBeGreaterThan(0.7);
}

/** Whether the page's own font draws `text` as glyphs: a missing font draws the same box as for an unassigned code point. */
function drawsGlyphs(page: Page, text: string): Promise<boolean> {
  return page.evaluate((text) => {
    const font = `32px ${getComputedStyle(document.body).fontFamily}`;
    const draw = (s: string) => {
      const ctx = document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
      ctx.canvas.width = ctx.canvas.height = 64;
      ctx.font = font;
      ctx.fillText(s, 4, 40);
      return ctx.getImageData(0, 0, 64, 64).data.join(",");
    };
    const tofu = draw("\u{10FFFD}");
    return [...text].every((ch) => draw(ch) !== tofu) && draw(text[0]!) !== draw(text[1]!);
  }, text);
}

async function checkMessagePage(page: Page) {
  // The thread is named once, linking to its page.
  await expect(page.locator(`a[href="/threads/${THREAD}"]`)).toHaveCount(1);
  await expect(page.locator("dt").filter({ hasText: /^Thread$/ })).toHaveCount(0);
  const text = page.getByText(JAPANESE).first();
  await expect(text).toBeVisible();
  expect((await text.boundingBox())?.width).toBeGreaterThan(0);
  expect(await drawsGlyphs(page, JAPANESE), "Japanese text drawn as boxes: is a CJK font installed (fonts-noto-cjk)?").toBe(true);
  await expectNoFutureEvents(page);
}

async function expectNoFutureEvents(page: Page) {
  const lifecycle = page.locator("section").filter({ has: page.getByRole("heading", { level: 2, name: "Lifecycle" }) });
  // The steps' times, not the stamp a note keeps of one that was in the future.
  const times = await lifecycle.locator("li time[datetime]:not([data-future-note] time)").evaluateAll((els) => els.map((e) => Date.parse(e.getAttribute("datetime") ?? "")));
  expect(times.length).toBeGreaterThan(0);
  const now = await page.evaluate(() => Date.now());
  for (const t of times) expect(t, "a lifecycle event dated in the future").toBeLessThanOrEqual(now + 60_000);
}

let userGoal = "";
let requeued = "";

test.beforeAll(async ({ request }) => {
  const found = (await (await request.get(`/api/messages?q=${encodeURIComponent("type:user_goal")}`)).json()) as { items: { key: string }[] };
  userGoal = found.items[0]?.key ?? "";
  expect(userGoal).not.toBe("");
});

for (const size of SIZES) {
  for (const theme of THEMES) {
    const file = `${size.width}x${size.height}-${theme}`;
    test(`every page reads well at ${file}`, async ({ browser, workspace }) => {
      test.setTimeout(120_000);
      if (!requeued) {
        // A requeued message of its own (other specs count the fixture's dead letters).
        const type = writeDeadLetter(workspace.root, "e2e_pages_probe", "innovator", 'idea: "look at me"\n');
        const page = await browser.newPage();
        await page.goto("/dead-letters");
        await page.getByRole("row").filter({ hasText: type }).getByRole("button", { name: "Requeue" }).click();
        await page.getByRole("status").getByRole("link", { name: "Open it" }).click();
        await expect(page.getByRole("heading", { level: 1, name: type })).toBeVisible();
        requeued = page.url();
        await page.close();
      }
      const context = await browser.newContext({ viewport: size, colorScheme: theme });
      const page = await context.newPage();

      await page.goto("/");
      await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
      await checkMessageList(page);
      await shoot(page, "overview", file);

      await page.goto("/messages");
      await checkMessageList(page);
      await shoot(page, "messages", file);

      await page.goto(`/messages/${userGoal}`);
      await checkMessagePage(page);
      await shoot(page, "message", file);

      await page.goto(requeued);
      await expect(page.getByText("requeue by operator")).toBeVisible();
      await expectNoFutureEvents(page);
      // One requeue is a few steps, not a wall of them.
      expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(2000);
      await shoot(page, "message-requeued", file);

      await page.goto("/threads");
      await expect(page.getByRole("link", { name: THREAD })).toBeVisible();
      await shoot(page, "threads", file);

      await page.goto(`/threads/${THREAD}`);
      await checkGraph(page, theme);
      await shoot(page, "thread", file);

      await page.goto("/dead-letters");
      await expect(page.getByRole("heading", { level: 1, name: "Dead letters" })).toBeVisible();
      await shoot(page, "dead-letters", file);

      await page.goto("/agents/leader");
      await checkMessageList(page);
      await shoot(page, "agent", file);

      await page.goto("/compose");
      await shoot(page, "compose", file);
      await context.close();
    });
  }
}

test("the overview's dead total, the agents' Dead column and /dead-letters count the same messages", async ({ page }) => {
  await page.goto("/");
  const totals = page.getByRole("list", { name: "Totals by status" });
  const number = async (label: RegExp) => {
    const chip = totals.getByRole("link").filter({ hasText: label });
    return (await chip.count()) === 0 ? 0 : Number((await chip.locator("span").first().textContent())?.replace(/,/g, ""));
  };
  const agents = page.getByRole("table", { name: "Agents and their message counts" });
  const deadColumn = await agents.evaluate((t) => {
    const index = [...t.querySelectorAll("thead th")].findIndex((th) => th.textContent === "Dead");
    return [...t.querySelectorAll("tbody tr")].reduce((n, r) => n + Number(r.children[index]?.textContent ?? 0), 0);
  });
  const letters = ((await (await page.request.get("/api/dead-letters")).json()) as { items: unknown[] }).items.length;
  expect(await number(/^\s*[\d,]+\s*dead$/)).toBe(deadColumn);
  expect(await number(/dead letters?$/)).toBe(letters);
  await page.goto("/dead-letters");
  await expect(page.getByText(new RegExp(`^${letters} dead letters? in`))).toBeVisible();
});

test("a lifecycle event later than the viewer's clock is shown at now, with its own time noted", async ({ page }) => {
  // The viewer's clock years behind the server's and the fixture's dates: every event is "in the future" to it.
  await page.clock.install({ time: new Date("2020-01-01T00:00:00Z") });
  await page.goto(`/messages/${userGoal}`);
  await expect(page.getByText(/in the future: a clock ahead of this one/).first()).toBeVisible();
  await expectNoFutureEvents(page);
});

test("before the page knows the viewer's zone (the server's render), a list's times are ages by the server's clock, none cut short", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  for (const url of ["/", "/messages", "/agents/leader"]) {
    await page.goto(url);
    const times = page.locator("tbody tr[data-key] td:first-child");
    // Rendered by the server only when the list is (a live list may fill in on the client).
    if ((await times.count()) === 0) continue;
    // An age, as once hydrated (a UTC date there swapped for an age moved the rows): its date in UTC on hover.
    await expect(times.first()).toHaveText(/^(just now|\d+ (s|min|h|d) ago)$/);
    await expect(times.first().locator("time")).toHaveAttribute("title", /UTC$/);
    const cut = await times.evaluateAll((cells) => cells.filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent));
    expect(cut, `${url}: times cut short`).toEqual([]);
  }
  await context.close();
});
