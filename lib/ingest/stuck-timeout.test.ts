import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { closeJournals, openJournal } from "@/lib/journal/store";
import { freshJournal, setUpIngestFixture, ws } from "./ingest-fixture";
import { IngestService } from "./service";

setUpIngestFixture();

/** A first scan of the fixture (its evaluation_request has been processing for days) with `settings`. */
async function stuckCount(settings: Record<string, string> = {}): Promise<number> {
  const { config, pageOf } = freshJournal(settings);
  const fresh = new IngestService(config, openJournal(config.journalFile));
  await fresh.start();
  const n = pageOf("is:stuck").length;
  fresh.stop();
  return n;
}

const SYSTEM_YAML = "queue:\n  poll_interval: 10\ndefaults:\n  message_priority: normal\n  task_timeout: 30000000  # seconds\n";

describe("the stuck timeout follows the workspace's system.yaml", () => {
  it("is 300 s without one, defaults.task_timeout with one, and MAILROOM_STUCK_AFTER overrides it", async () => {
    expect(await stuckCount()).toBe(1);
    fs.writeFileSync(path.join(ws, ".ignite", "system.yaml"), SYSTEM_YAML);
    expect(await stuckCount()).toBe(0);
    expect(await stuckCount({ MAILROOM_STUCK_AFTER: "300" })).toBe(1);
    closeJournals();
  });
});
