import { expect, test } from "./fixtures";

test("the overview lists every agent of the fixture with its counts", async ({ page }) => {
  await page.goto("/");
  const agents = page.getByRole("table", { name: "Agents and their message counts" });
  for (const agent of ["leader", "strategist", "architect", "evaluator", "coordinator", "innovator", "ignitian_1", "ignitian_2", "ignitian_3"]) {
    await expect(agents.getByRole("rowheader", { name: agent, exact: true })).toBeVisible();
  }
  // The evaluator's request has been processing for days: it is stuck.
  const evaluator = agents.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "evaluator", exact: true }) });
  await expect(evaluator.getByRole("cell").nth(5)).toHaveText("1");
});

test("an agent page shows that agent's queue", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "ignitian_3", exact: true }).click();
  await expect(page).toHaveURL(/\/agents\/ignitian_3$/);
  await expect(page.getByRole("link", { name: "task_assignment" })).toBeVisible();
  await expect(page.getByText("retrying").first()).toBeVisible();
});

test("the overview's counts are live: a new message raises its agent's queued count without a reload", async ({ page, workspace }) => {
  const statsAnswers: number[] = [];
  page.on("response", (r) => {
    if (new URL(r.url()).pathname === "/api/stats") statsAnswers.push(r.status());
  });
  await page.goto("/");
  const agents = page.getByRole("table", { name: "Agents and their message counts" });
  const queued = agents.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "innovator", exact: true }) }).getByRole("cell").nth(0);
  const before = Number(await queued.textContent());
  // A few polls with nothing new (answered 304) before the message arrives.
  await expect.poll(() => statsAnswers).toContain(304);
  workspace.send({ from: "leader", to: "innovator", type: "task_assignment", body: "task_id: overview_live\n" });
  await expect(queued).toHaveText(String(before + 1));
});

test("the agents view lists every agent, those that need a look first, and sorts by any column", async ({ page }) => {
  await page.goto("/agents");
  const table = page.getByRole("table", { name: /Agents across protocols/ });
  const names = () => table.getByRole("rowheader").getByRole("link").allTextContents();
  await expect(table.getByRole("link", { name: "leader", exact: true })).toBeVisible();
  // The evaluator's request is stuck, and two agents' health records call them stale.
  expect((await names()).slice(0, 3).sort()).toEqual(["evaluator", "ignitian_2", "ignitian_3"]);
  await table.getByRole("button", { name: "Agent" }).click();
  await expect(table.getByRole("columnheader", { name: "Agent" })).toHaveAttribute("aria-sort", "ascending");
  expect((await names())[0]).toBe("architect");
});
