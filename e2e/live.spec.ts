import fs from "node:fs";
import path from "node:path";
import { expect, test } from "./fixtures";

test("a file written during the test appears in the open timeline without a reload", async ({ page, workspace }) => {
  await page.goto("/messages");
  await expect(page.getByText("Live", { exact: true })).toBeVisible();
  // Marks this document: a reload or navigation would lose it.
  await page.evaluate(() => Object.assign(window, { __sameDocument: true }));

  workspace.send({ from: "coordinator", to: "ignitian_1", type: "task_assignment", body: 'task_id: "task_e2e"\ntitle: "ライブ更新の確認"\n' });

  const indicator = page.getByRole("button", { name: "1 new message" });
  await expect(indicator).toBeVisible();
  await indicator.click();
  await expect(page.getByText('task_id: "task_e2e"')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
});

test("a list with nothing in it shows a new match at once: there is nothing on screen to keep still", async ({ page, workspace }) => {
  await page.goto("/messages?q=type:e2e_straight_in");
  await expect(page.getByRole("region", { name: "Messages" }).getByText("No messages match this search.")).toBeVisible();

  workspace.send({ from: "coordinator", to: "ignitian_2", type: "e2e_straight_in", body: 'task_id: "task_straight_in"\n' });

  await expect(page.getByText('task_id: "task_straight_in"')).toBeVisible();
  await expect(page.getByRole("button", { name: /new message/ })).toHaveCount(0);
});

test("a burst bigger than one poll's answer shows the newest page, not the first hundred changes", async ({ page, request, workspace }) => {
  await page.goto("/messages?q=type:e2e_burst");
  await expect(page.getByRole("region", { name: "Messages" }).getByText("No messages match this search.")).toBeVisible();
  await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
  // Polls wait until the whole burst is journaled, so the first one after it comes back full.
  let release = () => {};
  const journaled = new Promise<void>((resolve) => (release = resolve));
  await page.route((url) => url.pathname === "/api/messages" && url.searchParams.has("since"), async (route) => {
    await journaled;
    await route.continue();
  });

  const BURST = 150;
  // Long ago, so the burst stays below every other test's newest messages (the agent page's first page).
  const start = Date.parse("2020-01-01T00:00:00Z");
  for (let i = 0; i < BURST; i++) {
    const date = new Date(start + i * 1000);
    workspace.send({ from: "coordinator", to: "ignitian_3", type: "e2e_burst", body: `task_id: "burst_${i}"\n`, date });
  }
  await expect
    .poll(async () => ((await (await request.get("/api/messages?q=type:e2e_burst&limit=500")).json()) as { items: unknown[] }).items.length, { timeout: 20_000 })
    .toBe(BURST);
  release();

  await expect(page.getByText(`${BURST} messages. That is everything that matches.`)).toBeVisible();
  await expect(page.getByRole("row").nth(1)).toContainText(`task_id: "burst_${BURST - 1}"`);
  await expect(page.getByRole("button", { name: /new message/ })).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
});

test("a list that empties and fills again leaves the focus where the reader put it, with nothing selected", async ({ page, workspace }) => {
  await page.goto("/messages?q=type:e2e_refill -is:gone");
  await expect(page.getByRole("region", { name: "Messages" }).getByText("No messages match this search.")).toBeVisible();
  const first = workspace.send({ from: "coordinator", to: "ignitian_3", type: "e2e_refill", body: 'task_id: "task_refill_1"\n' });
  const rows = page.getByRole("table", { name: /newest first/ }).locator("tbody tr[data-key]");
  await expect(rows).toHaveCount(1);
  await page.keyboard.press("j");
  await expect(rows.first().getByRole("link")).toBeFocused();

  // Deleted: gone, so it leaves this search and the list is empty.
  fs.rmSync(path.join(workspace.root, ".ignite", "queue", "ignitian_3", first));
  await expect(page.getByRole("region", { name: "Messages" }).getByText("No messages match this search.")).toBeVisible();
  const box = page.getByRole("combobox", { name: "Search messages" });
  await box.click();

  workspace.send({ from: "coordinator", to: "ignitian_3", type: "e2e_refill", body: 'task_id: "task_refill_2"\n', date: new Date(Date.now() + 1000) });
  await expect(page.getByText('task_id: "task_refill_2"')).toBeVisible();
  await expect(box).toBeFocused();
  await expect(page.locator("tbody tr[data-key][data-selected]")).toHaveCount(0);
});

test("new messages held behind the button show by themselves once the list's last row leaves", async ({ page, workspace }) => {
  await page.goto("/messages?q=type:e2e_emptied -is:gone");
  await expect(page.getByRole("region", { name: "Messages" }).getByText("No messages match this search.")).toBeVisible();
  const first = workspace.send({ from: "coordinator", to: "ignitian_3", type: "e2e_emptied", body: 'task_id: "task_emptied_1"\n' });
  await expect(page.getByText('task_id: "task_emptied_1"')).toBeVisible();
  workspace.send({ from: "coordinator", to: "ignitian_3", type: "e2e_emptied", body: 'task_id: "task_emptied_2"\n', date: new Date(Date.now() + 1000) });
  await expect(page.getByRole("button", { name: "1 new message" })).toBeVisible();

  fs.rmSync(path.join(workspace.root, ".ignite", "queue", "ignitian_3", first));
  await expect(page.getByText('task_id: "task_emptied_2"')).toBeVisible();
  await expect(page.getByText('task_id: "task_emptied_1"')).toHaveCount(0);
  await expect(page.getByRole("button", { name: /new message/ })).toHaveCount(0);
});
