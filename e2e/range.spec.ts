import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";

/** Wait until the server has journaled the one message of this type. */
const journaled = (request: APIRequestContext, type: string) =>
  expect.poll(async () => ((await (await request.get(`/api/messages?q=type:${type}`)).json()) as { items: unknown[] }).items.length).toBe(1);

test("the last hour, picked on the timeline, is in the URL and shows only that hour's messages", async ({ page, request, workspace }) => {
  workspace.send({ from: "coordinator", to: "ignitian_1", type: "e2e_range_recent", body: 'task_id: "task_range_recent"\n' });
  // Journaled before the page opens, so it is in the first page rather than behind "1 new message".
  await journaled(request, "e2e_range_recent");
  // The fixture's messages are days old: in all time, not in the last hour. Each is searched for by
  // its type: other specs' messages, newer, may push an old one off the first page of everything.
  await page.goto("/messages?q=type:github_event");
  await expect(page.getByText("github_event", { exact: true })).toBeVisible();
  await page.getByLabel("Time range").selectOption("1h");
  await expect(page).toHaveURL(/[?&]range=1h(&|$)/);
  await expect(page.getByRole("region", { name: "Messages" }).getByText("No messages match this search.")).toBeVisible();
  await expect(page.getByText("github_event", { exact: true })).toHaveCount(0);

  await page.goto("/messages?q=type:e2e_range_recent&range=1h");
  await expect(page.getByLabel("Time range")).toHaveValue("1h");
  await expect(page.getByText('task_id: "task_range_recent"')).toBeVisible();

  // The threads and the overview's charts read the same range from the URL.
  await page.goto("/threads?range=1h");
  await expect(page.getByLabel("Time range")).toHaveValue("1h");
  await page.goto("/?range=1h");
  const byAgent = page.getByRole("figure", { name: "Messages by agent" });
  await expect(byAgent.locator("canvas")).toHaveCount(1);
  await byAgent.getByText("Show the numbers").click();
  await expect(page.getByRole("table", { name: "Messages by agent" }).getByRole("columnheader", { name: "ignitian_1" })).toBeVisible();
});

test("paused, the page holds still; resumed, it catches up", async ({ page, request, workspace }) => {
  await page.goto("/messages?q=type:e2e_paused");
  await expect(page.getByRole("region", { name: "Messages" }).getByText("No messages match this search.")).toBeVisible();
  await page.getByRole("button", { name: /Pause/ }).click();
  await expect(page.getByText("Live updates paused")).toBeVisible();
  // The choice holds across a reload (localStorage).
  await page.reload();
  await expect(page.getByText("Live updates paused")).toBeVisible();
  // What a page fetches as it opens, it fetches paused too; from then on, nothing.
  await page.waitForLoadState("networkidle");
  let polls = 0;
  page.on("request", (r) => {
    if (new URL(r.url()).pathname === "/api/messages") polls++;
  });

  workspace.send({ from: "coordinator", to: "ignitian_2", type: "e2e_paused", body: 'task_id: "task_paused"\n' });
  // The server has it; three poll intervals later the paused page still has not asked.
  await journaled(request, "e2e_paused");
  await page.waitForTimeout(6_000);
  expect(polls).toBe(0);
  await expect(page.getByText('task_id: "task_paused"')).toHaveCount(0);

  await page.getByRole("button", { name: /Resume/ }).click();
  await expect(page.getByText('task_id: "task_paused"')).toBeVisible();
});
