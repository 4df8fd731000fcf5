// A root nothing claims is reported with what each protocol looks for, from the catalogs.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeJournals, openJournal } from "@/lib/journal/store";
import { CATALOGS } from "@/lib/protocols";
import { copyFixture } from "@/lib/testing/fixtures";
import { tempDirs } from "@/lib/testing/temp-dirs";
import { EntryIngest } from "./entry-ingest";
import { loadConfig } from "@/lib/server/config";
import { IngestService } from "./service";
import { discoverSources, keptNames, rootNames } from "./sources";

describe("discoverSources on a folder no protocol claims", () => {
  it("names what every protocol looks for, so the user can fix the root", async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-empty-"));
    try {
      fs.mkdirSync(path.join(empty, "notes"));
      const sources = await discoverSources([empty]);
      expect(sources).toHaveLength(1);
      expect(sources[0]?.reader).toBeNull();
      expect(sources[0]?.error).toContain(`no message queue found in ${empty}`);
      for (const c of CATALOGS) expect(sources[0]?.error).toContain(`${c.label}'s ${c.workspace}`);
      expect(sources[0]?.error).toContain("Is MAILROOM_ROOT the workspace folder?");
    } finally {
      fs.rmSync(empty, { recursive: true });
    }
  });
});

describe("roots of the same folder name", () => {
  const temp = tempDirs();
  afterEach(() => closeJournals());

  it("name each root by its parents where its own name is shared, and by a hash where no parent tells them apart", () => {
    const names = rootNames(["/srv/team-a/workspace", "/srv/team-b/workspace", "/home/ops/notes", "/x/my ws", "/x/my-ws", "/y/z/my-ws", "/"]);
    expect(names.get("/srv/team-a/workspace")).toBe("team-a-workspace");
    expect(names.get("/srv/team-b/workspace")).toBe("team-b-workspace");
    // Alone in its name: as before, so a journal's existing rows keep their source.
    expect(names.get("/home/ops/notes")).toBe("notes");
    expect(names.get("/")).toBe("root");
    // "my ws" and "my-ws" are one slug, in the same folder: only a hash tells them apart.
    const hashed = ["/x/my ws", "/x/my-ws"].map((r) => names.get(r) ?? "");
    expect(new Set(hashed).size).toBe(2);
    for (const n of hashed) expect(n).toMatch(/^x-my-ws-[0-9a-f]{8}$/);
    expect(names.get("/y/z/my-ws")).toBe("y-z-my-ws");
    expect(new Set(names.values()).size).toBe(names.size);
  });

  it("never take a name another root has alone, and keep the names the journal knows", () => {
    // /srv/x/ws would be "x-ws", which /srv/x-ws has alone.
    expect(rootNames(["/srv/x/ws", "/srv/y/ws", "/srv/x-ws"])).toEqual(new Map([["/srv/x-ws", "x-ws"], ["/srv/x/ws", "srv-x-ws"], ["/srv/y/ws", "srv-y-ws"]]));
    // Team A's workspace was journaled alone as "workspace": team B's, added, does not rename it.
    const kept = keptNames([{ id: "workspace-shogun", protocol: "shogun", root: "/srv/team-a/workspace" }, { id: "odd", protocol: "shogun", root: "/srv/odd" }]);
    expect(kept).toEqual(new Map([["/srv/team-a/workspace", "workspace"]]));
    expect(rootNames(["/srv/team-a/workspace", "/srv/team-b/workspace"], kept)).toEqual(new Map([["/srv/team-a/workspace", "workspace"], ["/srv/team-b/workspace", "team-b-workspace"]]));
  });

  it("read a root that is another one through a link once", async () => {
    const parent = temp("mailroom-linked-root-");
    const root = copyFixture("shogun", path.join(parent, "workspace"));
    fs.symlinkSync(root, path.join(parent, "alias"));
    expect((await discoverSources([root, path.join(parent, "alias")])).map((s) => [s.id, s.root])).toEqual([["workspace-shogun", root]]);
  });

  it("keep a root's source through restarts as roots of its name are added and removed", async () => {
    const parent = temp("mailroom-same-name-");
    const [a, b] = ["team-a", "team-b"].map((team) => copyFixture("shogun", path.join(parent, team, "workspace"))) as [string, string];
    const journal = openJournal(path.join(parent, "data", "journal.db"));
    const start = async (roots: string[]) => {
      const service = new IngestService(loadConfig({ MAILROOM_ROOT: roots.join(":"), MAILROOM_DATA: path.join(parent, "data"), MAILROOM_RESCAN_MS: "600000" }), journal);
      await service.start();
      service.stop();
    };
    const rowsOf = () => journal.db.prepare("SELECT source, count(*) AS n FROM messages WHERE message_id = 'msg_20260206_104230_e3f4a5b6' GROUP BY source ORDER BY source").all();
    await start([a]);
    expect(rowsOf()).toEqual([{ source: "workspace-shogun", n: 1 }]);
    await start([a, b]);
    expect(rowsOf()).toEqual([{ source: "team-b-workspace-shogun", n: 1 }, { source: "workspace-shogun", n: 1 }]);
    await start([a]);
    expect(rowsOf()).toEqual([{ source: "team-b-workspace-shogun", n: 1 }, { source: "workspace-shogun", n: 1 }]);
    expect(journal.db.prepare("SELECT id FROM sources").pluck().all()).toEqual(["workspace-shogun"]);
  });

  it("journal two shogun workspaces called the same as two sources, each with all its messages", async () => {
    const parent = temp("mailroom-same-name-");
    const roots = ["team-a", "team-b"].map((team) => copyFixture("shogun", path.join(parent, team, "workspace")));
    const sources = await discoverSources(roots);
    expect(sources.map((s) => s.id)).toEqual(["team-a-workspace-shogun", "team-b-workspace-shogun"]);
    const journal = openJournal(path.join(parent, "data", "journal.db"));
    const ingest = new EntryIngest(journal.db);
    for (const s of sources) if (s.entries) await ingest.scan(s.entries);
    const count = (source: string) => journal.db.prepare("SELECT count(*) FROM messages WHERE source = ?").pluck().get(source) as number;
    const [a, b] = sources.map((s) => count(s.id));
    expect(a).toBeGreaterThan(0);
    expect(b).toBe(a);
    // A mark-read in one workspace is that workspace's alone.
    const inbox = "queue/inbox/karo.yaml";
    const text = fs.readFileSync(path.join(roots[1] ?? "", inbox), "utf8");
    fs.writeFileSync(path.join(roots[1] ?? "", inbox), text.replace(/read: false/g, "read: true"));
    for (const s of sources) if (s.entries) await ingest.scan(s.entries);
    const unread = (source: string) => journal.db.prepare("SELECT count(*) FROM messages WHERE source = ? AND status = 'unread'").pluck().get(source) as number;
    expect(unread(sources[0]?.id ?? "")).toBeGreaterThan(unread(sources[1]?.id ?? ""));
  });
});
