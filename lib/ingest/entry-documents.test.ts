// Documents over time (shogun): a worker's task file is overwritten with each task, and its report
// answers a task by the task's id. The task and its report are two messages, each with its own
// history: the report's arrival is not the task moving, and the next task does not erase either.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { closeJournals, openJournal } from "@/lib/journal/store";
import { copyFixture } from "@/lib/testing/fixtures";
import { EntryIngest } from "./entry-ingest";
import { discoverSources } from "./sources";

const temps: string[] = [];
afterEach(() => {
  closeJournals();
  for (const t of temps.splice(0)) fs.rmSync(t, { recursive: true, force: true });
});

const task = (id: string) => `task:\n  task_id: ${id}\n  parent_cmd: cmd_048\n  description: "画像を WebP に変換 (${id})"\n  status: assigned\n  timestamp: "2026-02-06T11:00:00"\n`;
const report = (id: string) => `worker_id: ashigaru3\ntask_id: ${id}\nparent_cmd: cmd_048\ntimestamp: "2026-02-06T11:20:00"\nstatus: done\nresult:\n  summary: "${id} 完了"\n`;

it("a task and its report are two messages, and the worker's next task keeps both", async () => {
  const root = copyFixture("shogun");
  const data = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-documents-"));
  temps.push(root, data);
  const journal = openJournal(path.join(data, "journal.db"));
  const ingest = new EntryIngest(journal.db);
  const scan = async () => {
    for (const s of (await discoverSources([root])).flatMap((x) => (x.entries ? [x.entries] : []))) await ingest.scan(s);
  };
  const write = (rel: string, text: string) => fs.writeFileSync(path.join(root, rel), text);
  const rows = () =>
    journal.db.prepare("SELECT key, type, from_name AS fromName, path, last_path AS lastPath FROM messages WHERE last_path LIKE '%ashigaru3%' ORDER BY id").all() as {
      key: string; type: string; fromName: string; path: string | null; lastPath: string;
    }[];

  write("queue/tasks/ashigaru3.yaml", task("subtask_900a"));
  await scan();
  const [assigned] = rows();
  write("queue/reports/ashigaru3_report.yaml", report("subtask_900a"));
  await scan();
  write("queue/tasks/ashigaru3.yaml", task("subtask_900b"));
  await scan();

  expect(rows()).toEqual([
    { key: assigned!.key, type: "task", fromName: "karo", path: null, lastPath: "queue/tasks/ashigaru3.yaml" },
    { key: expect.any(String), type: "report", fromName: "ashigaru3", path: "queue/reports/ashigaru3_report.yaml", lastPath: "queue/reports/ashigaru3_report.yaml" },
    { key: expect.any(String), type: "task", fromName: "karo", path: "queue/tasks/ashigaru3.yaml", lastPath: "queue/tasks/ashigaru3.yaml" },
  ]);
  const kinds = journal.db.prepare("SELECT kind FROM events WHERE key = ? ORDER BY id").pluck().all(assigned!.key);
  expect(kinds).toEqual(["seen", "trimmed"]);
});
