// Playwright fixtures: the workspace the server under test reads, and a way to drop a message
// into it the way an IGNITE agent would.
import fs from "node:fs";
import path from "node:path";
import { expect, test as base, type Page } from "@playwright/test";
import { ignite } from "../lib/protocols/fixtures";

const { buildDeadLetter, buildMessage, markProcessing, messageFileName } = ignite;

interface Workspace {
  root: string;
  /**
   * Write a new message into queue/<to>/ atomically (temp file + rename); returns its file name.
   * Names are made from `date` (now by default): messages sent in one go need dates of their own.
   */
  send(input: { from: string; to: string; type: string; body: string; date?: Date }): string;
  /** Write `content` as queue/<agent>/<name> atomically (temp file + rename), as an agent drops a file. */
  put(agent: string, name: string, content: string): void;
}

export const test = base.extend<{ workspace: Workspace }>({
  // `provide` is Playwright's fixture callback (named so React's hook lint leaves it alone).
  workspace: async ({}, provide) => {
    const dir = process.env.MAILROOM_E2E_DIR;
    if (!dir) throw new Error("MAILROOM_E2E_DIR is set by playwright.config.ts");
    const root = path.join(dir, "workspace");
    await provide({
      root,
      send({ from, to, type, body, date = new Date() }) {
        const name = messageFileName(type, date);
        const queue = path.join(root, ".ignite", "queue", to);
        const temp = path.join(queue, `.${name}.tmp`);
        fs.writeFileSync(temp, buildMessage({ from, to: [to], type, body, date }), { mode: 0o600 });
        fs.renameSync(temp, path.join(queue, name));
        return name;
      },
      put(agent, name, content) {
        const queue = path.join(root, ".ignite", "queue", agent);
        fs.writeFileSync(path.join(queue, `.${name}.tmp`), content, { mode: 0o600 });
        fs.renameSync(path.join(queue, `.${name}.tmp`), path.join(queue, name));
      },
    });
  },
});

export { expect } from "@playwright/test";

/**
 * Wait until the page's handlers are attached (components/hydrated-mark.tsx): a server-rendered
 * page shows its rows before its keyboard shortcuts work, and a key pressed in between is lost.
 */
export async function interactive(page: Page): Promise<void> {
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
}

/** Write a dead letter into queue/dead_letter/ atomically, as dlq_handler.sh would; returns the original's type. */
export function writeDeadLetter(root: string, type: string, to: string, body: string): string {
  const date = new Date();
  const name = messageFileName(type, date);
  const original = markProcessing(buildMessage({ from: "coordinator", to: [to], type, body, date }), date);
  const letter = buildDeadLetter(original, name, { retryCount: 3, maxRetries: 3, lastError: "timeout after 3 retries", movedAt: date });
  const dir = path.join(root, ".ignite", "queue", "dead_letter");
  const file = `${name.replace(/\.mime$/, "")}_dlq_${Math.floor(date.getTime() / 1000)}.mime`;
  fs.writeFileSync(path.join(dir, `.${file}.tmp`), letter, { mode: 0o600 });
  fs.renameSync(path.join(dir, `.${file}.tmp`), path.join(dir, file));
  return type;
}
