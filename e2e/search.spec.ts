import { expect, interactive, test } from "./fixtures";
import type { Page } from "@playwright/test";

// The fixture has ~21 messages, seven of them to the leader; earlier specs may add more, so
// counts here are lower bounds or relative. `?limit=3` makes pages small enough to page through.

const searchBox = (page: Page) => page.getByRole("combobox", { name: "Search messages" });
const rowsOf = (page: Page) => page.getByRole("table", { name: /newest first/ }).locator("tbody tr[data-key]");

test("GET /api/facets offers agents, types, priorities and threads", async ({ request }) => {
  const res = await request.get("/api/facets");
  expect(res.status()).toBe(200);
  const body = (await res.json()) as Record<string, string[]>;
  expect(body.agents).toEqual(expect.arrayContaining(["leader", "strategist", "ignitian_1"]));
  expect(body.types).toContain("user_goal");
  expect(body.priorities).toContain("high");
  expect(body.threads).toContain("thr_readme_42");
  expect(body.protocols).toEqual(["ignite"]);
  expect(body.sources).toHaveLength(1);
});

test("protocol: completes the journal's protocol, takes an alias, names the protocols it takes; one protocol puts no badge on rows", async ({ page }) => {
  await page.goto("/messages");
  const box = searchBox(page);
  await box.click();
  await box.pressSequentially("-protocol:");
  await expect(page.getByRole("listbox", { name: "Search suggestions" }).getByRole("option", { name: /^ignite/ })).toBeVisible();
  await box.fill("protocol:v3");
  await box.press("Enter");
  await expect(page).toHaveURL(/q=protocol%3Av3$/);
  await expect(rowsOf(page).first()).toBeVisible();
  // The fixture speaks IGNITE v3 only: the rows need not say so.
  await expect(page.getByRole("table", { name: /newest first/ })).not.toContainText("IGNITE v3");
  await searchBox(page).fill("protocol:smtp");
  await expect(page.locator("#q-error")).toContainText('unknown protocol "smtp": expected one of ignite, ignite-yaml, shogun, workflow, kicklang');
});

test("search with completion, page through older results, open one, and come back", async ({ page }) => {
  await page.goto("/messages?limit=3");
  const box = searchBox(page);
  await box.click();
  await box.pressSequentially("to");
  const suggestions = page.getByRole("listbox", { name: "Search suggestions" });
  await expect(suggestions.getByRole("option", { name: /^to:/ })).toBeVisible();
  await expect(box).toHaveAttribute("aria-expanded", "true");
  await box.press("ArrowDown");
  await expect(box).toHaveAttribute("aria-activedescendant", /q-listbox-opt-0/);
  await box.press("Enter");
  await expect(box).toHaveValue("to:");
  // The field's values follow at once: agents, from GET /api/facets.
  await box.pressSequentially("lea");
  await suggestions.getByRole("option", { name: /^leader/ }).click();
  await expect(box).toHaveValue("to:leader ");
  await expect(box).toBeFocused();
  await box.press("Enter");

  // The space the suggestion left for a next term is not in the URL.
  await expect(page).toHaveURL(/\/messages\?limit=3&q=to%3Aleader$/);
  await expect(searchBox(page)).toHaveValue("to:leader");
  const rows = rowsOf(page);
  await expect(rows).toHaveCount(3);
  const table = page.getByRole("table", { name: "Messages matching to:leader, newest first" });
  await expect(table).toHaveAttribute("aria-rowcount", "-1");
  await expect(rows.first()).toHaveAttribute("aria-rowindex", "2");

  await page.getByRole("button", { name: "Load older" }).click();
  await expect(rows).toHaveCount(6);
  await expect(rows.nth(5)).toHaveAttribute("aria-rowindex", "7");
  for (const route of await rows.locator("td:nth-child(4)").allInnerTexts()) expect(route).toMatch(/→\s*leader/);

  const key = await rows.nth(4).getAttribute("data-key");
  await rows.nth(4).getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/messages/${key}$`));
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

  // Back: the same search, with the pages that were loaded.
  await page.goBack();
  await expect(page).toHaveURL(/q=to%3Aleader/);
  await expect(searchBox(page)).toHaveValue("to:leader");
  await expect(rowsOf(page)).toHaveCount(6);
  // Back again: the search before it; forward returns.
  await page.goBack();
  await expect(page).toHaveURL(/\/messages\?limit=3$/);
  await expect(searchBox(page)).toHaveValue("");
  await page.goForward();
  await expect(searchBox(page)).toHaveValue("to:leader");
});

test("a malformed query is explained under the box as it is typed, and after searching, with the box still focused to fix it", async ({ page }) => {
  await page.goto("/messages");
  const box = searchBox(page);
  await box.fill("status:deadish");
  await expect(page.locator("#q-error")).toContainText('Bad search: unknown status "deadish"');
  await expect(box).toHaveAttribute("aria-invalid", "true");
  await box.press("Enter");
  await expect(page).toHaveURL(/q=status%3Adeadish/);
  await expect(page.getByRole("alert").filter({ hasText: "Bad search" })).toContainText("(at position 8)");
  // The box keeps the focus through the search, the caret at the end: the mistake is fixed by typing on.
  await expect(searchBox(page)).toBeFocused();
  for (let i = 0; i < "ish".length; i++) await page.keyboard.press("Backspace");
  await expect(searchBox(page)).toHaveValue("status:dead");
  // A draft is checked once typing pauses (600 ms): only after that does "no error" say it is valid.
  await page.waitForTimeout(1000);
  await expect(page.locator("#q-error")).toHaveCount(0);
  await expect(searchBox(page)).not.toHaveAttribute("aria-invalid");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/q=status%3Adead$/);
  await expect(searchBox(page)).toBeFocused();
});

test("a search that changes nothing leaves the focus alone afterwards: back from a message, j/k still move", async ({ page }) => {
  await page.goto("/messages");
  const box = searchBox(page);
  await box.fill("to:leader");
  await box.press("Enter");
  await expect(page).toHaveURL(/q=to%3Aleader$/);
  await expect(searchBox(page)).toBeFocused();
  // The same search again: nothing remounts, so nothing asks for the focus.
  await page.keyboard.press("Enter");
  await page.keyboard.press("Escape");
  await expect(searchBox(page)).not.toBeFocused();
  await page.keyboard.press("j");
  const key = await rowsOf(page).first().getAttribute("data-key");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/messages/${key}$`));
  await page.keyboard.press("Escape");
  await expect(page).toHaveURL(/q=to%3Aleader$/);
  await expect(rowsOf(page).first()).toHaveAttribute("data-selected", "true");
  await expect(searchBox(page)).not.toBeFocused();
});

test("keyboard: / to search, j/k select, Enter opens, Esc goes back to the same row", async ({ page }) => {
  await page.goto("/messages?q=to:leader");
  const rows = rowsOf(page);
  await expect(rows.nth(2)).toBeVisible();
  await interactive(page);
  await page.keyboard.press("/");
  await expect(searchBox(page)).toBeFocused();
  // Keys typed into the box stay in the box.
  await page.keyboard.press("End");
  await page.keyboard.type("j");
  await expect(searchBox(page)).toHaveValue("to:leaderj");
  await page.keyboard.press("Escape");
  await expect(searchBox(page)).not.toBeFocused();

  await page.keyboard.press("j");
  await page.keyboard.press("j");
  await page.keyboard.press("j");
  await page.keyboard.press("k");
  await expect(rows.nth(1)).toHaveAttribute("data-selected", "true");
  await expect(rows.nth(1).getByRole("link")).toBeFocused();
  const key = await rows.nth(1).getAttribute("data-key");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/messages/${key}$`));
  await expect(page.getByText("Lifecycle")).toBeVisible();

  await page.keyboard.press("Escape");
  await expect(page).toHaveURL(/\/messages\?q=to(%3A|:)leader$/);
  await expect(rowsOf(page).nth(1)).toHaveAttribute("data-selected", "true");
  await page.keyboard.press("Escape");
  await expect(rowsOf(page).locator("[data-selected]")).toHaveCount(0);

  await page.keyboard.press("?");
  const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Open the selected message");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/messages\?q=to(%3A|:)leader$/);
});

test("/ on a page without a search box opens the messages search, focused", async ({ page }) => {
  await page.goto("/messages?q=to:leader");
  const key = await rowsOf(page).first().getAttribute("data-key");
  await page.goto(`/messages/${key}`);
  await expect(page.getByText("Lifecycle")).toBeVisible();
  await interactive(page);
  await page.keyboard.press("/");
  await expect(page).toHaveURL(/\/messages$/);
  await expect(searchBox(page)).toBeFocused();
  await page.keyboard.type("from:");
  await expect(searchBox(page)).toHaveValue("from:");

  // Never away from input not yet sent: on compose, / stays.
  await page.goto("/compose");
  await interactive(page);
  await page.getByRole("checkbox").first().focus();
  await page.keyboard.press("/");
  await page.waitForTimeout(300);
  await expect(page).toHaveURL(/\/compose$/);
});
