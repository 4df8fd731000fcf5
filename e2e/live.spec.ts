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
