// The presenter view: it follows a new thread by itself, and a pinned presenter stays put.
import fs from "node:fs";
import path from "node:path";
import { ignite } from "../lib/protocols/fixtures";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const { buildMessage } = ignite;

test.use({ viewport: { width: 1280, height: 720 } });

/** Where to save screenshots for a person to check (not kept by the repo), when asked. */
const SCREENS = process.env.MAILROOM_SCREENSHOTS;

/** The page as it looks now (and, with `dark`, in the dark theme too), when SCREENS asks for screenshots. */
async function screenshot(page: Page, name: string, dark?: "dark") {
  if (!SCREENS) return;
  fs.mkdirSync(SCREENS, { recursive: true });
  // Transitions finished: a chip lighting up is caught lit.
  await page.screenshot({ path: path.join(SCREENS, name), animations: "disabled" });
  if (!dark) return;
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: path.join(SCREENS, name.replace(/\.png$/, "-dark.png")), animations: "disabled" });
  await page.emulateMedia({ colorScheme: "light" });
}

test("the presenter switches to a new thread by itself, lights its agents, fits 1280×720, and stays put while pinned", async ({ page, workspace }) => {
  await page.goto("/present");
  const shown = page.getByTestId("present-thread");
  const mode = page.getByTestId("present-mode");
  await expect(mode).toContainText("Following the newest thread");
  // Marks this document: a reload would lose it.
  await page.evaluate(() => Object.assign(window, { __sameDocument: true }));

  const start = Date.now();
  const thread = `thr_e2e_present_${start}`;
  workspace.put("strategist", `strategy_request_${start}000.mime`, buildMessage({
    from: "leader", to: ["strategist"], type: "strategy_request", threadId: thread, body: "goal: present\n", date: new Date(start), messageId: `<${thread}.1@e2e>`,
  }));
  await expect(shown).toHaveText(thread);
  await expect(page.getByTestId("present-position")).toHaveText(/^thread 1 of \d+$/);
  await expect(page.getByTestId("thread-graph").getByRole("link", { name: /^strategy_request, leader → strategist/ })).toBeVisible();
  const agents = page.getByRole("list", { name: "Agents of this thread" });
  await expect(agents.locator('[data-light="sending"]')).toHaveText(/^leader/);

  // A reply: the thread grows, its sender lights up, and the ticker has it on top.
  workspace.put("leader", `strategy_response_${start}001.mime`, buildMessage({
    from: "strategist", to: ["leader"], type: "strategy_response", threadId: thread, inReplyTo: `<${thread}.1@e2e>`, body: "plan: yes\n",
    date: new Date(start + 1000),
  }));
  await expect(page.getByTestId("thread-graph").getByRole("link", { name: /^strategy_response, strategist → leader/ })).toBeVisible();
  await expect(agents.locator('[data-light="sending"]')).toHaveText(/^strategist/);
  await expect(page.getByTestId("present-ticker").getByRole("listitem").first()).toContainText("strategy_response");

  // Made for the screen: nothing scrolls at 1280×720.
  const scroll = await page.evaluate(() => ({ page: document.documentElement.scrollHeight, screen: document.documentElement.clientHeight }));
  expect(scroll.page).toBeLessThanOrEqual(scroll.screen);
  await screenshot(page, "present.png", "dark");

  // v: the same thread as a sequence.
  await page.keyboard.press("v");
  await expect(page.getByTestId("thread-sequence")).toBeVisible();
  await screenshot(page, "present-sequence.png");

  // Space pins: a newer thread reaches the presenter's list, and the presenter stays put.
  await page.keyboard.press(" ");
  await expect(mode).toContainText("Pinned");
  const later = `thr_e2e_present_later_${start}`;
  const listed = page.waitForResponse(async (res) => new URL(res.url()).pathname === "/api/threads" && res.ok() && (await res.text()).includes(later));
  workspace.put("strategist", `strategy_request_${start}002.mime`, buildMessage({
    from: "leader", to: ["strategist"], type: "strategy_request", threadId: later, body: "goal: later\n", date: new Date(start + 2000), messageId: `<${later}.1@e2e>`,
  }));
  await listed;
  // The new thread is first in the presenter's list now, the pinned one second: still on screen.
  await expect(page.getByTestId("present-position")).toHaveText(/^thread 2 of \d+$/);
  await expect(shown).toHaveText(thread);

  // Space again: following, it moves to the newest thread.
  await page.keyboard.press(" ");
  await expect(mode).toContainText("Following the newest thread");
  await expect(shown).toHaveText(later);
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
});

test("every page links to the presenter", async ({ page }) => {
  await page.goto("/threads");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Present" }).click();
  await expect(page).toHaveURL(/\/present$/);
  await expect(page.getByRole("heading", { level: 1, name: "Presenter" })).toBeVisible();
});
