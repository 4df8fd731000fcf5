// What a keyboard or screen-reader user does, where the page must keep their place: the focus
// stays on (or comes back to) what they pressed, Esc never throws away an edit, a search says what
// it found, a select does not load a page per arrow key, the graph pans and brings each message
// into view, and one-key shortcuts can be turned off.
import type { Page } from "@playwright/test";
import { expect, interactive, test, writeDeadLetter } from "./fixtures";

const THREAD = "thr_readme_42";
const rowOf = (page: Page, text: string) => page.getByRole("row").filter({ hasText: text });
const focusedText = (page: Page) => page.evaluate(() => (document.activeElement === document.body ? "<body>" : (document.activeElement?.textContent ?? "").trim()));

test("Esc on a dead letter's requeue editor keeps an edited body, and closes an unchanged one", async ({ page, workspace }) => {
  const type = writeDeadLetter(workspace.root, "e2e_escape_probe", "innovator", "idea: keep me\n");
  await page.goto("/dead-letters");
  await rowOf(page, type).getByRole("link", { name: "dead letter" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "dead_letter" })).toBeVisible();
  const url = page.url();
  await interactive(page);

  await page.getByRole("button", { name: "Edit & requeue" }).click();
  const editor = page.getByRole("textbox", { name: "YAML body" });
  await editor.fill("idea: edited\n");
  await editor.press("Escape");
  await page.getByRole("button", { name: "Cancel" }).press("Escape");
  expect(page.url()).toBe(url);
  await expect(editor).toHaveValue("idea: edited\n");

  await page.getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("button", { name: "Edit & requeue" }).click();
  await editor.press("Escape");
  await expect(editor).toHaveCount(0);
  expect(page.url()).toBe(url);
});

test("the focus stays on what was pressed: a requeue's Undo, then the row's Requeue again; the bulk Preview", async ({ page, workspace }) => {
  const first = writeDeadLetter(workspace.root, "e2e_focus_probe_a", "innovator", "idea: a\n");
  const second = writeDeadLetter(workspace.root, "e2e_focus_probe_b", "innovator", "idea: b\n");
  await page.goto("/dead-letters");
  await interactive(page);
  const row = rowOf(page, first);
  await row.getByRole("button", { name: "Requeue" }).press("Enter");
  await expect(row.getByRole("button", { name: "Undo" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(row.getByRole("button", { name: "Requeue" })).toBeFocused();

  for (const type of [first, second]) await rowOf(page, type).getByRole("checkbox").press("Space");
  const preview = page.getByRole("button", { name: "Preview" });
  await preview.press("Enter");
  await expect(page.getByText(/^Preview — nothing was changed: 2 of 2 would succeed/)).toBeVisible();
  await expect(preview).toBeFocused();
});

test("replay buttons that turn unavailable keep the focus", async ({ page }) => {
  await page.goto(`/threads/${THREAD}`);
  await interactive(page);
  const replay = page.getByRole("region", { name: "Replay" });
  await replay.getByRole("button", { name: "Step forward" }).press("Enter");
  await expect(replay.getByText(/^Step 1 of/)).toBeVisible();
  const stop = replay.getByRole("button", { name: "Stop" });
  await stop.press("Enter");
  await expect(replay.getByText(/press Play to step through them/)).toBeVisible();
  await expect(stop).toBeFocused();
  await expect(stop).toHaveAttribute("aria-disabled", "true");
  expect(await focusedText(page)).toBe("Stop");
});

test("the graph: every message is a link in it, arrow keys pan it, and a message tabbed to is brought into view", async ({ page }) => {
  await page.goto(`/threads/${THREAD}`);
  await interactive(page);
  const graph = page.getByTestId("thread-graph");
  const links = graph.locator(".react-flow__node a[href]");
  await expect(links.first()).toBeAttached();
  const total = await page.evaluate(async (id) => ((await (await fetch(`/api/threads/${id}`)).json()) as { messages: unknown[] }).messages.length, THREAD);
  await expect(links).toHaveCount(total);

  const viewport = graph.locator(".react-flow__viewport");
  const before = await viewport.getAttribute("style");
  await graph.focus();
  await page.keyboard.press("ArrowLeft");
  await expect.poll(() => viewport.getAttribute("style")).not.toBe(before);

  // Far out of view: panned away, then focused as Tab would.
  for (let i = 0; i < 40; i++) await page.keyboard.press("ArrowLeft");
  await links.last().focus();
  await expect(links.last()).toBeInViewport();
});

test("the graph: its first Tab stop skips past its messages and controls", async ({ page }) => {
  await page.goto(`/threads/${THREAD}`);
  await interactive(page);
  const graph = page.getByTestId("thread-graph");
  await expect(graph.locator(".react-flow__node a[href]").first()).toBeAttached();
  const inGraph = () => page.evaluate(() => document.querySelector("[data-testid='thread-graph']")?.contains(document.activeElement) ?? false);
  await graph.focus();
  await page.keyboard.press("Tab");
  const skip = graph.getByRole("button", { name: "Skip past the graph" });
  await expect(skip).toBeFocused();
  // Shown once it has the focus (screen-reader only before).
  expect((await skip.boundingBox())?.width ?? 0).toBeGreaterThan(40);
  // Without it, the next stop is the graph's first message.
  await page.keyboard.press("Tab");
  await expect(graph.locator(".react-flow__node a[href]").first()).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  expect(await focusedText(page)).toBe("End of the thread graph");
  await page.keyboard.press("Tab");
  expect(await inGraph()).toBe(false);
});

test("a search says what it found through the page's live region", async ({ page }) => {
  await page.goto("/messages");
  await interactive(page);
  const box = page.getByRole("combobox", { name: "Search messages" });
  await box.fill("from:leader");
  await box.press("Enter");
  await expect(page.locator("#announcer")).toHaveText(/^\d+ (or more )?messages? match/);
  await box.fill("from:nobody_at_all");
  await box.press("Enter");
  await expect(page.locator("#announcer")).toHaveText("No messages match this search.");
});

test("the time range follows arrow keys only once they stop, or at once on Enter", async ({ page }) => {
  await page.goto("/messages");
  await interactive(page);
  // Each range the page is loaded for, and when it was asked (the navigation's request).
  const asked: { range: string; at: number }[] = [];
  page.on("request", (r) => {
    const range = new URL(r.url()).searchParams.get("range");
    if (range) asked.push({ range, at: Date.now() });
  });
  const select = page.getByLabel("Time range");
  await select.focus();
  const keys = Date.now();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await expect(page).toHaveURL(/range=1h/);
  // Two keys, one load (none for the 15 minutes passed over), a second or so after them.
  expect(asked.map((a) => a.range)).toEqual(["1h"]);
  expect(asked[0]!.at - keys).toBeGreaterThanOrEqual(900);

  await select.focus();
  const pressed = Date.now();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/range=24h/);
  // Asked for on Enter, not after the second's wait.
  expect(asked.map((a) => a.range)).toEqual(["1h", "24h"]);
  expect(asked[1]!.at - pressed).toBeLessThan(900);
});

test("one-key shortcuts can be turned off, and stay off", async ({ page }) => {
  await page.goto("/messages");
  await interactive(page);
  const selected = page.locator("tbody tr[data-key][data-selected]");
  const box = page.getByRole("combobox", { name: "Search messages" });
  // Out of the search box (Esc leaves it), where j is typed, not a shortcut.
  await box.press("Escape");
  await page.keyboard.press("j");
  await expect(selected).toHaveCount(1);
  await page.keyboard.press("Escape");
  await expect(selected).toHaveCount(0);

  await page.getByRole("button", { name: /Keyboard shortcuts/ }).click();
  await page.getByRole("checkbox", { name: /Single-key shortcuts/ }).uncheck();
  await page.getByRole("button", { name: "Close" }).click();
  // Off: j selects nothing, while Esc and the keys that are not one character still work (the dialog's Close took Enter).
  await page.keyboard.press("j");
  await page.keyboard.press("/");
  await expect(box).not.toBeFocused();
  await expect(selected).toHaveCount(0);
  await page.reload();
  await interactive(page);
  await box.press("Escape");
  await page.keyboard.press("j");
  await page.keyboard.press("/");
  await expect(box).not.toBeFocused();
  await expect(selected).toHaveCount(0);
});

test("compose: the field that takes the focus on a send without recipients says why", async ({ page }) => {
  await page.goto("/compose");
  await interactive(page);
  await page.getByLabel("From", { exact: true }).fill("coordinator");
  await page.getByLabel("Type", { exact: true }).fill("note");
  await page.getByRole("button", { name: "Send" }).press("Enter");
  const other = page.getByLabel("Other recipients");
  await expect(other).toBeFocused();
  await expect(other).toHaveAttribute("aria-describedby", "compose-to-error");
  await expect(page.locator("#compose-to-error")).toHaveText(/recipient/);
});

test("the presenter: its stage keeps the focus when the view changes, no page control hides under it, arrows still switch threads", async ({ page }) => {
  await page.goto("/present");
  await interactive(page);
  // The page's own button is under the presenter: hidden, and the presenter's legend opens the list.
  await expect(page.getByRole("contentinfo").getByRole("button", { name: /Keyboard shortcuts/ })).toBeHidden();
  await page.locator('footer[aria-label="Presenter keys"]').getByRole("button", { name: "Keyboard shortcuts" }).click();
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
  await page.keyboard.press("Escape");
  // A click on the graph focuses it; the arrows are still the presenter's (they pan the graph elsewhere).
  await page.getByTestId("thread-graph").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("present-mode")).toContainText("Pinned");
  const node = page.getByRole("region", { name: "Thread" }).locator(".react-flow__node a[href]").first();
  await node.focus();
  await page.keyboard.press("v");
  await expect(page.getByTestId("present-mode")).toContainText("sequence");
  await expect(page.getByRole("region", { name: "Thread" })).toBeFocused();
});
