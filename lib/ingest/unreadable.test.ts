// Folders and files that are there but cannot be read (EACCES) are a problem on their source, never
// a deletion, and never reach the API as a size of -1.
//
// Real permissions, really refused: chmod 000 stops reads only for a process that cannot override
// file permissions. Tests often run as root, which can (CAP_DAC_OVERRIDE), so then the first test
// runs this same file again in a vitest of its own started without those capabilities (setpriv),
// where chmod 000 fails readdir, lstat and open with a real EACCES, as for any other user.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { querySources } from "@/lib/journal/queries";
import { loadConfig } from "@/lib/server/config";
import { data, freshJournal, journal, mime, q, queue, service, setUpIngestFixture, until, ws } from "./ingest-fixture";
import { openIgnite } from "@/lib/protocols/ignite";
import { scanSource } from "./scan";
import { IngestService } from "./service";
import { discoverSources } from "./sources";

/** Whether this process reads a folder whatever its mode (root, with CAP_DAC_OVERRIDE). */
function overridesPermissions(): boolean {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-perm-"));
  fs.chmodSync(dir, 0o000);
  try {
    fs.readdirSync(dir);
    return true;
  } catch {
    return false;
  } finally {
    fs.chmodSync(dir, 0o700);
    fs.rmdirSync(dir);
  }
}

const overrides = overridesPermissions();
/** The capabilities that let root read whatever a file's mode says. */
const DROP = "-dac_override,-dac_read_search";

it.runIf(overrides)("runs its cases again in a process that cannot override file permissions", () => {
  const vitest = path.join(process.cwd(), "node_modules", ".bin", "vitest");
  const run = spawnSync(
    "setpriv",
    [`--inh-caps=${DROP}`, `--bounding-set=${DROP}`, vitest, "run", "lib/ingest/unreadable.test.ts"],
    { encoding: "utf8", env: { ...process.env, CI: "1" }, timeout: 300_000 },
  );
  // Without the colours of vitest's report.
  const output = `${run.stdout}\n${run.stderr}`.replace(/\x1b\[[0-9;]*m/g, "");
  expect(run.status, output).toBe(0);
  // Each case ran there (only this one was skipped).
  expect(output).toMatch(/Tests\s+9 passed \| 1 skipped/);
}, 320_000);

const LEADER = ".ignite/queue/leader/";

describe.skipIf(overrides)("a folder or file that cannot be read", () => {
  setUpIngestFixture();

  const leaderRows = () =>
    journal.db.prepare("SELECT key, path, status FROM messages WHERE path LIKE ? ORDER BY key").all(`${LEADER}%`) as { key: string; path: string; status: string }[];
  const events = () => journal.db.prepare("SELECT count(*) FROM events").pluck().get() as number;
  const problem = () => querySources(journal.db)[0]?.error ?? null;

  /** chmod 000 on the leader's queue for the length of `fn`. */
  async function withLeaderUnreadable(fn: () => Promise<void>): Promise<void> {
    fs.chmodSync(queue("leader"), 0o000);
    try {
      await fn();
    } finally {
      fs.chmodSync(queue("leader"), 0o755);
    }
  }

  it("is the source's problem, not the deletion of its messages; all resumes when it can be read", async () => {
    const rows = leaderRows();
    expect(rows.length).toBeGreaterThan(0);
    const before = events();
    await withLeaderUnreadable(async () => {
      await service.scanNow();
      expect(leaderRows()).toEqual(rows);
      expect(events()).toBe(before);
      expect(problem()).toContain(`${LEADER} (EACCES)`);
      // A periodic rescan lists before its turn: the same.
      await service.periodicRescan();
      expect(leaderRows()).toEqual(rows);
      expect(events()).toBe(before);
      expect(problem()).toContain(`${LEADER} (EACCES)`);
    });
    await service.scanNow();
    expect(problem()).toBeNull();
    expect(leaderRows()).toEqual(rows);
    expect(events()).toBe(before);
  });

  it("is taken up as soon as it can be read again, without waiting for a periodic rescan", async () => {
    const rows = leaderRows();
    const before = events();
    await withLeaderUnreadable(async () => {
      await service.scanNow();
      expect(problem()).toContain(`${LEADER} (EACCES)`);
    });
    // The chmod back is the folder's own event: no scan is asked for here (the periodic one is a minute away).
    await until(() => problem() === null);
    expect(leaderRows()).toEqual(rows);
    expect(events()).toBe(before);
  });

  it("is not a deletion when the folder can be listed but its entries cannot be looked at (r without x)", async () => {
    const rows = leaderRows();
    const before = events();
    fs.chmodSync(queue("leader"), 0o444);
    try {
      await service.scanNow();
      expect(problem()).toContain(`${LEADER} (EACCES)`);
    } finally {
      fs.chmodSync(queue("leader"), 0o755);
    }
    expect(leaderRows()).toEqual(rows);
    expect(events()).toBe(before);
  });

  it("a workspace folder that cannot be reached is said to be unreadable, not missing", async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-locked-"));
    fs.mkdirSync(path.join(parent, "ws"));
    fs.chmodSync(parent, 0o000);
    try {
      const [source] = await discoverSources([path.join(parent, "ws")]);
      expect(source?.error).toContain("cannot be read (EACCES)");
    } finally {
      fs.chmodSync(parent, 0o700);
      fs.rmSync(parent, { recursive: true });
    }
  });

  it("is not a deletion when a big tree is compared on a worker thread either", async () => {
    service.stop();
    const rows = leaderRows();
    const before = events();
    // Any tree counts as big here.
    const offThread = new IngestService(loadConfig({ MAILROOM_ROOT: ws, MAILROOM_DATA: data, MAILROOM_RESCAN_MS: "60000" }), journal, 0);
    try {
      await withLeaderUnreadable(async () => {
        await offThread.periodicRescan();
        expect(problem()).toContain(`${LEADER} (EACCES)`);
      });
      expect(leaderRows()).toEqual(rows);
      expect(events()).toBe(before);
      expect(querySources(journal.db)[0]?.agents).toContain("leader");
    } finally {
      offThread.stop();
    }
  });

  it("is said when a first scan lists the tree on worker threads", async () => {
    const { fresh, pageOf } = freshJournal();
    const reader = await openIgnite(ws);
    if (!reader) throw new Error("not a workspace");
    fresh.writer.upsertSource({ id: "s", protocol: "ignite", root: ws, error: null });
    await withLeaderUnreadable(async () => {
      // Any tree counts as big here.
      const scanned = await scanSource({ id: "s", protocol: "ignite", root: ws, reader, error: null }, fresh.writer, { reportProgress: false, workersMinFiles: 0 });
      expect(scanned.load?.listedOn).toBeGreaterThan(0);
      expect(scanned.unreadable).toEqual([{ relPath: LEADER.slice(0, -1), code: "EACCES" }]);
    });
    expect(pageOf("agent:coordinator").length).toBeGreaterThan(0);
  });

  it("is not a deletion when a file event names a file in it", async () => {
    const rows = leaderRows();
    const before = events();
    await withLeaderUnreadable(async () => {
      await service.syncPaths(rows.map((r) => path.join(ws, r.path)));
      // Past the grace a vanished file waits for a move to claim it (1 s): still as it was.
      await new Promise((r) => setTimeout(r, 2500));
      await service.syncPaths([]);
      expect(leaderRows()).toEqual(rows);
      expect(events()).toBe(before);
    });
  });

  it("is not a deletion when the queue folder itself cannot be read, and its agents stay", async () => {
    const all = journal.db.prepare("SELECT key, path, status FROM messages WHERE path IS NOT NULL ORDER BY key").all();
    const agents = querySources(journal.db)[0]?.agents;
    fs.chmodSync(queue(), 0o000);
    try {
      await service.scanNow();
      expect(problem()).toContain(".ignite/queue/ (EACCES)");
    } finally {
      fs.chmodSync(queue(), 0o755);
    }
    expect(journal.db.prepare("SELECT key, path, status FROM messages WHERE path IS NOT NULL ORDER BY key").all()).toEqual(all);
    expect(querySources(journal.db)[0]?.agents).toEqual(agents);
  });

  it("a file that cannot be read at a first scan is a listed problem with a real size, and is read once it can be", async () => {
    const file = queue("leader", "task_assignment_1795400000000009.mime");
    fs.writeFileSync(file, mime("locked", "leader"));
    fs.chmodSync(file, 0o000);
    const { config, fresh, pageOf } = freshJournal();
    const first = new IngestService(config, fresh);
    try {
      await first.start();
      // Read through the API's own schema: a size of -1 made it throw (a 500).
      const [locked] = pageOf("path:.ignite/queue/leader/task_assignment_1795400000000009.mime");
      expect(locked).toMatchObject({ status: "invalid", size: fs.statSync(file).size, problems: ["The file could not be read."] });
      fs.chmodSync(file, 0o644);
      await first.scanNow();
      expect(pageOf("mid:<locked@ignite.local>")[0]).toMatchObject({ key: locked?.key, status: "queued", problems: [] });
    } finally {
      first.stop();
    }
    expect(q("mid:<locked@ignite.local>")).toHaveLength(0); // the fixture's own journal never saw it
  });
});
