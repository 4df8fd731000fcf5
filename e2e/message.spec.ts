import { expect, test } from "./fixtures";

test("opening a message shows its headers, its body with structure, and its history", async ({ page }) => {
  await page.goto("/messages?q=type:user_goal");
  await page.getByRole("link", { name: "user_goal" }).click();
  await expect(page).toHaveURL(/\/messages\/user_goal_1795134600214337-/);
  await expect(page.getByRole("heading", { level: 1, name: "user_goal" })).toBeVisible();
  await expect(page.getByText("README.mdを整備する").first()).toBeVisible();
  const headers = page.getByRole("table", { name: "Headers, in file order" });
  await expect(headers.getByRole("row").nth(1)).toContainText("MIME-Version");
  await expect(headers).toContainText("thr_readme_42");
  await expect(page.getByText(/first seen/i).first()).toBeVisible();
});

test("a bad search says what was wrong under the search box", async ({ page }) => {
  await page.goto("/messages?q=colour:red");
  await expect(page.getByRole("alert").filter({ hasText: "Bad search" })).toContainText('unknown field "colour:"');
});

test("an unknown message key or agent is a clear 404 page", async ({ page }) => {
  const message = await page.goto("/messages/no_such_message-00000000");
  expect(message?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(/no such message/i);
  const agent = await page.goto("/agents/nobody");
  expect(agent?.status()).toBe(404);
});
