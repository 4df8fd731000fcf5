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
