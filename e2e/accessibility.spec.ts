// Every page, as axe-core checks it against WCAG 2.1 A and AA: names for controls, contrast,
// landmarks, headings. Over all five protocols' fixtures, each its own root, as a user runs them.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { copyFixture } from "../lib/testing/fixtures";
import { startOwnServer, type OwnServer } from "./own-server";

const PROTOCOLS = ["ignite", "ignite-yaml", "shogun", "workflow", "kicklang"] as const;

let dir: string;
let server: OwnServer;

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-e2e-a11y-"));
  const roots = PROTOCOLS.map((p) => copyFixture(p, path.join(dir, p)));
  server = await startOwnServer({ root: roots.join(":"), data: path.join(dir, "data") });
  await expect
    .poll(async () => {
      const res = await request.get(`${server.base}/api/sources`).catch(() => null);
      const body = res?.ok() ? ((await res.json()) as { sources: { indexing: { done: boolean } }[] }) : null;
      return body !== null && body.sources.length > 0 && body.sources.every((s) => s.indexing.done);
    }, { timeout: 90_000 })
    .toBe(true);
});

test.afterAll(() => {
  server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function violations(page: Page): Promise<string[]> {
  const { violations: found } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return found.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
}

for (const colorScheme of ["light", "dark"] as const) test(`every page passes axe's WCAG 2.1 AA checks, ${colorScheme}`, async ({ page, request }) => {
  await page.emulateMedia({ colorScheme });
  test.setTimeout(180_000);
  const first = async (url: string, pick: (body: never) => string | undefined) => pick((await (await request.get(`${server.base}${url}`)).json()) as never);
  const message = await first("/api/messages?limit=1", (b: { items: { key: string }[] }) => b.items[0]?.key);
  const thread = await first("/api/threads?limit=1", (b: { items: { id: string }[] }) => b.items[0]?.id);
  const agent = await first("/api/stats", (b: { agents: { agent: string }[] }) => b.agents[0]?.agent);
  const pages = ["/", "/messages", `/messages/${message}`, "/threads", `/threads/${encodeURIComponent(thread ?? "")}`, "/dead-letters", "/compose", "/logs", "/agents", `/agents/${encodeURIComponent(agent ?? "")}`, "/present", "/sources/shogun-shogun/documents/dashboard.md"];
  const found: string[] = [];
  for (const url of pages) {
    await page.goto(`${server.base}${url}`);
    await page.waitForLoadState("networkidle");
    for (const v of await violations(page)) found.push(`${url}: ${v}`);
  }
  expect(found, found.join("\n")).toEqual([]);
});
