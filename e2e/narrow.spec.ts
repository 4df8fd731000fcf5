import { expect, test } from "./fixtures";

// On a phone, tables scroll inside their cards and the navigation inside the header: the page
// itself never scrolls sideways, so nothing is cut off out of reach.
test.use({ viewport: { width: 390, height: 844 } });

test("no page is wider than a phone's screen", async ({ page }) => {
  await page.goto("/messages?q=status:dead");
  const message = page.getByRole("table").getByRole("link").first();
  await expect(message).toBeVisible();
  const messageUrl = await message.getAttribute("href");
  for (const url of ["/", "/messages", "/threads", "/threads/thr_readme_42", "/dead-letters", "/compose", "/logs", "/present", "/agents/leader", messageUrl ?? "/"]) {
    await page.goto(url);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const width = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: document.documentElement.clientWidth }));
    expect(width.page, `${url} scrolls sideways`).toBeLessThanOrEqual(width.screen);
  }
  // The presenter, built for big screens, wraps on a phone: its stage as wide as the screen, its header within it.
  await page.goto("/present");
  expect((await page.getByRole("region", { name: "Thread" }).boundingBox())!.width).toBeGreaterThan(300);
  const mode = (await page.getByTestId("present-mode").boundingBox())!;
  expect(mode.x + mode.width).toBeLessThanOrEqual(391);
  // The header's sources fold into their summary, beside the navigation, not over it.
  await page.goto("/");
  const nav = await page.getByRole("navigation", { name: "Main" }).boundingBox();
  const summary = await page.locator("header summary").filter({ hasText: /^\d+ sources?/ }).boundingBox();
  expect(nav!.x + nav!.width).toBeLessThanOrEqual(summary!.x + 1);
  // Every section is still reachable: the links scroll within the header.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Compose" }).click();
  await expect(page).toHaveURL(/\/compose$/);
});
