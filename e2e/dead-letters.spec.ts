// Dead letters: requeue from the list, discard and restore, edit & requeue with the diff.
// Destructive steps use the architecture_request dead letter (other specs count the ignitian_2
// one) or dead letters this spec writes itself, like the queue monitor would.
import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, test, writeDeadLetter } from "./fixtures";

const rowOf = (page: Page, text: string) => page.getByRole("row").filter({ hasText: text });

test("requeue a dead letter from the list and find it in its original queue", async ({ page }) => {
  await page.goto("/dead-letters");
  await expect(page.getByRole("heading", { level: 1, name: "Dead letters" })).toBeVisible();
  const row = rowOf(page, "architecture_request");
  await expect(row).toContainText("architect");
  await expect(row).toContainText("timeout after 3 retries");
  await expect(row).toContainText("thr_ci_cache_57");

  await row.getByRole("button", { name: "Requeue" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Requeued" })).toContainText(
    ".ignite/queue/architect/architecture_request_1795133781377120.mime",
  );
  // The row stays where it was, marked done, with its undo in place of the buttons.
  await expect(row).toHaveAttribute("data-done", "");
  await expect(row.getByRole("button", { name: "Undo" })).toBeVisible();
  await expect(row.getByRole("button", { name: "Requeue" })).toHaveCount(0);

  // The dead letter, archived by the requeue, reads as requeued: not discarded, not dead.
  await page.goto("/messages?q=status:requeued");
  await expect(page.getByRole("table").getByRole("row").filter({ hasText: "dead_letter" })).toContainText("requeued");

  await page.goto("/agents/architect");
  const requeued = page.getByRole("row").filter({ has: page.getByRole("link", { name: "architecture_request" }) });
  await expect(requeued).toContainText("queued");
  await requeued.getByRole("link", { name: "architecture_request" }).click();
  // One lifecycle step: the move ingest saw, with the operator's requeue that made it.
  await expect(page.getByRole("listitem").filter({ hasText: "requeue by operator" })).toContainText(
    "requeued — back in .ignite/queue/architect/architecture_request_1795133781377120.mime as queued",
  );
});

test("discard a dead letter, then restore it", async ({ page, workspace }) => {
  const type = writeDeadLetter(workspace.root, "e2e_discard_probe", "innovator", 'idea: "discard me"\n');
  await page.goto("/dead-letters");
  const row = rowOf(page, type);
  await expect(row).toBeVisible();

  await row.getByRole("button", { name: "Discard" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Discarded" })).toContainText(".ignite/archive/mailroom/queue/dead_letter/");
  await expect(row).toHaveAttribute("data-done", "");
  // The focus moves to the row's Restore, not lost with the Discard button it replaced.
  await expect(row.getByRole("button", { name: "Restore" })).toBeFocused();
  // The message it held (its own file long gone) is discarded with it, and lives on in the archive.
  const original = await page.context().newPage();
  await original.goto(`/messages?q=${encodeURIComponent(`type:${type}`)}`);
  await original.getByRole("link", { name: type }).first().click();
  await expect(original.getByRole("listitem").filter({ hasText: "dead → discarded" })).toContainText("in archive/ so far");
  await original.close();

  await row.getByRole("button", { name: "Restore" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Restored" })).toContainText(".ignite/queue/dead_letter/");
  await expect(row.getByRole("button", { name: "Discard" })).toBeVisible();
  await expect(row).not.toHaveAttribute("data-done");
});

test("a requeue from the list is undone from its row: the dead letter is back, the rows below never moved", async ({ page, workspace }) => {
  const type = writeDeadLetter(workspace.root, "e2e_undo_probe", "innovator", 'idea: "take it back"\n');
  await page.goto("/dead-letters");
  const row = rowOf(page, type);
  const below = page.getByRole("row").nth(2);
  // Measured once the new letter's row is listed: on a loaded machine ingest may journal it only
  // after the page's first render, and its row then pushes every row below it down by one.
  await expect(row).toBeVisible();
  const before = await below.boundingBox();

  // The list as the page fetches it once the requeue is done: without this dead letter.
  const without = page.waitForResponse(async (r) => r.url().endsWith("/api/dead-letters") && r.status() === 200 && !(await r.text()).includes(type));
  await row.getByRole("button", { name: "Requeue" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Requeued" })).toContainText(".ignite/queue/innovator/e2e_undo_probe_");
  await without;
  // The row is still there, marked done, and everything below it where it was.
  await expect(row).toHaveAttribute("data-done", "");
  // (Its height may change by a subpixel as the columns make room for the done row's undo.)
  expect(Math.abs((await below.boundingBox())!.y - before!.y)).toBeLessThan(1);

  await row.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Requeue undone" })).toContainText(".ignite/queue/dead_letter/e2e_undo_probe_");
  await expect(row.getByRole("button", { name: "Requeue" })).toBeVisible();
  const list = (await (await page.request.get("/api/dead-letters")).json()) as { items: { originalType: string | null }[] };
  expect(list.items.map((d) => d.originalType)).toContain(type);
});

test("edit & requeue checks the YAML as you type and shows the diff", async ({ page, workspace }) => {
  const type = writeDeadLetter(workspace.root, "e2e_edit_probe", "innovator", 'idea: "first draft"\nscope: small\n');
  await page.goto("/dead-letters");
  await rowOf(page, type).getByRole("link", { name: "dead letter" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "dead_letter" })).toBeVisible();

  await page.getByRole("button", { name: "Edit & requeue" }).click();
  const editor = page.getByRole("textbox", { name: "YAML body" });
  await expect(editor).toHaveValue('idea: "first draft"\nscope: small\n');

  await editor.fill('idea: "second draft"\nscope: [small\n');
  await expect(page.getByText(/not valid YAML \(line \d+, column \d+\)/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Requeue", exact: true })).toBeDisabled();

  await editor.fill('idea: "second draft"\nscope: small\nowner: innovator\n');
  await expect(page.getByText("Valid YAML.")).toBeVisible();
  const diff = page.getByRole("figure");
  await expect(diff).toContainText("2 lines added, 1 removed");
  await expect(diff.locator("del")).toContainText('idea: "first draft"');
  await expect(diff.locator("ins").first()).toContainText('idea: "second draft"');

  await page.getByRole("button", { name: "Requeue", exact: true }).click();
  const done = page.getByRole("status").filter({ hasText: "Requeued with the edited body" });
  await expect(done).toContainText(".ignite/queue/innovator/e2e_edit_probe_");
  await done.getByRole("link", { name: "Open it" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "e2e_edit_probe" })).toBeVisible();
  await page.getByRole("tab", { name: "Text" }).click();
  await expect(page.getByText("owner: innovator")).toBeVisible();
});

test("a bulk requeue, then a bulk discard, are each undone at once: every dead letter is back as it was", async ({ page, workspace }) => {
  const types = ["e2e_bulk_undo_a", "e2e_bulk_undo_b"].map((t) => writeDeadLetter(workspace.root, t, "innovator", "idea: bulk\n"));
  const deadLetterDir = path.join(workspace.root, ".ignite/queue/dead_letter");
  const letters = () => fs.readdirSync(deadLetterDir).filter((f) => f.startsWith("e2e_bulk_undo_")).sort();
  const before = letters().map((f) => fs.readFileSync(path.join(deadLetterDir, f), "utf8"));
  await page.goto("/dead-letters");
  for (const action of ["Requeue", "Discard"]) {
    for (const type of types) await rowOf(page, type).getByRole("checkbox").check();
    await page.getByRole("radio", { name: action }).check();
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByText(/^Preview — nothing was changed: 2 of 2 would succeed/)).toBeVisible();
    await page.getByRole("button", { name: "Confirm" }).click();
    await expect(page.getByText(/^Done: 2 of 2 succeeded\./)).toBeVisible();
    for (const type of types) await expect(rowOf(page, type)).toHaveCount(0);

    await page.getByRole("button", { name: "Undo", exact: true }).click();
    await expect(page.getByText(/^Undone: 2 of 2 dead letters are back\./)).toBeVisible();
    // The Undo went away with the run it took back: the focus is on Preview, not lost.
    await expect(page.getByRole("button", { name: "Preview" })).toBeFocused();
    for (const type of types) await expect(rowOf(page, type)).toHaveCount(1);
    // Back byte for byte (a requeue's mark taken off), and no requeued copy left in the queue.
    expect(letters().map((f) => fs.readFileSync(path.join(deadLetterDir, f), "utf8"))).toEqual(before);
    expect(fs.readdirSync(path.join(workspace.root, ".ignite/queue/innovator")).filter((f) => f.startsWith("e2e_bulk_undo_"))).toEqual([]);
  }
});
