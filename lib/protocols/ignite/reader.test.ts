import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_FILE_BYTES, type FoundFile, type ParsedMessage, type SourceReader } from "@/lib/protocols/types";
import { placeIgnite } from "./paths";
import { acceptByFolder, acceptNamesIn, igniteAdapter } from "./reader";
import { removeTemp, tempWorkspace } from "./test-fixture";

const HEAD = 64 * 1024;
let root: string;
let outside: string;

beforeEach(() => {
  root = tempWorkspace();
  outside = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-outside-"));
});
afterEach(() => {
  removeTemp(root);
  removeTemp(outside);
});

async function open(): Promise<SourceReader> {
  const r = await igniteAdapter.open(root);
  if (!r) throw new Error("not detected");
  return r;
}

/** Reads as ingest does: only regular files, only the head of an oversized one. */
async function parseAt(r: SourceReader, relPath: string): Promise<{ found: FoundFile; parsed: ParsedMessage }> {
  const found = (await r.list()).find((f) => f.relPath === relPath);
  const placement = r.place(relPath);
  if (!found || !placement) throw new Error(`not listed: ${relPath}`);
  let bytes: Buffer | null = null;
  if (found.kind === "file") {
    const all = fs.readFileSync(path.join(root, relPath));
    bytes = found.size > MAX_FILE_BYTES ? all.subarray(0, HEAD) : all;
  }
  return { found, parsed: await r.parse({ relPath, placement, bytes, found }) };
}

const Q = ".ignite/queue";

describe("open()", () => {
  it("finds .ignite/queue, watches the queue and the archive", async () => {
    const r = await open();
    expect(r.watchDirs).toEqual([path.join(root, ".ignite/queue"), path.join(root, ".ignite/archive/mailroom")]);
  });

  it("uses the root itself when there is no .ignite, and null without a queue", async () => {
    fs.renameSync(path.join(root, ".ignite"), path.join(root, "rt"));
    expect(await igniteAdapter.open(root)).toBeNull();
    const r = await igniteAdapter.open(path.join(root, "rt"));
    expect(r?.place("queue/leader/x.mime")).toEqual({ agent: "leader", folder: "queue" });
    expect(r?.place(".ignite/queue/leader/x.mime")).toBeNull();
  });

  it("does not take a symlinked .ignite or queue as the runtime", async () => {
    fs.renameSync(path.join(root, ".ignite"), path.join(outside, "real"));
    fs.symlinkSync(path.join(outside, "real"), path.join(root, ".ignite"));
    expect(await igniteAdapter.open(root)).toBeNull();
  });
});

describe("place()", () => {
  const place = (p: string) => placeIgnite(".ignite/", p);
  it("places queue, processed, dead letters and the archive", () => {
    expect(place(`${Q}/leader/x.mime`)).toEqual({ agent: "leader", folder: "queue" });
    expect(place(`${Q}/leader/processed/x.mime`)).toEqual({ agent: "leader", folder: "processed" });
    expect(place(`${Q}/dead_letter/x_dlq_1.mime`)).toEqual({ agent: "dead_letter", folder: "dead_letter" });
    expect(place(".ignite/archive/mailroom/queue/leader/processed/x.mime")).toEqual({ agent: "leader", folder: "archive" });
    expect(place(".ignite/archive/mailroom/queue/dead_letter/x.mime")).toEqual({ agent: "dead_letter", folder: "archive" });
  });
  it("places a v2 (YAML) message waiting in a queue, which the monitor converts to .mime", () => {
    expect(place(`${Q}/leader/x.yaml`)).toEqual({ agent: "leader", folder: "queue" });
  });

  it("refuses everything else", () => {
    for (const p of [
      `${Q}/leader/.x.mime.tmp-123`, `${Q}/leader/processed/.gitkeep`, `${Q}/leader/processed/x.yaml`, `${Q}/dead_letter/x.yaml`, `${Q}/leader/x.mime.tmp`,
      `${Q}/.hidden/x.mime`, `${Q}/bad name/x.mime`, `${Q}/leader/other/x.mime`, `${Q}/x.mime`, `${Q}/leader/../x.mime`,
      `${Q}/dead_letter/processed/x.mime`, ".ignite/logs/queue_monitor.log", ".ignite/state/task_health.json",
      ".ignite/archive/other/queue/leader/x.mime", "queue/leader/x.mime", `${Q}//x.mime`,
    ]) expect(place(p), p).toBeNull();
  });
});

describe("list() and parse() on awkward trees", () => {
  it("lists a symlink to a file outside the root as a problem and never reads it", async () => {
    const secret = path.join(outside, "secret.mime");
    fs.writeFileSync(secret, "Message-ID: <secret@x>\nFrom: spy\n\nsecret body\n");
    fs.symlinkSync(secret, path.join(root, Q, "leader/link.mime"));
    fs.symlinkSync(outside, path.join(root, Q, "evil")); // a linked "agent" folder is not walked
    const r = await open();
    const { found, parsed } = await parseAt(r, `${Q}/leader/link.mime`);
    expect(found.kind).toBe("symlink");
    expect(found.size).toBe(fs.lstatSync(path.join(root, Q, "leader/link.mime")).size);
    expect(parsed.status).toBe("invalid");
    expect(parsed.problems[0]).toMatch(/symbolic link/);
    expect(JSON.stringify(parsed)).not.toMatch(/secret|spy/);
    expect((await r.list()).some((f) => f.relPath.includes("evil"))).toBe(false);
    expect(await r.agents()).not.toContain("evil");
  });

  it("tells each folder just before it reads it: a file made then is in the listing", async () => {
    const r = await open();
    const processed = path.join(root, Q, "leader/processed");
    const made = `${Q}/leader/processed/task_assignment_1795400000000009.mime`;
    const found = await r.list({ onDir: (d) => d === processed && fs.writeFileSync(path.join(root, made), "From: a\n\n") });
    expect(found.map((f) => f.relPath)).toContain(made);
  });

  it("lists the same when it reads synchronously (on a worker thread), links included", async () => {
    fs.symlinkSync(outside, path.join(root, Q, "evil"));
    fs.symlinkSync(path.join(root, Q, "leader/processed"), path.join(root, Q, "leader/link.mime"));
    const r = await open();
    const byPath = (files: FoundFile[]) => [...files].sort((a, b) => a.relPath.localeCompare(b.relPath));
    for (const stat of [true, false]) {
      const dirs: [string[], string[]] = [[], []];
      const listed = await r.list({ stat, onDir: (d) => dirs[0].push(d) });
      const listedSync = await r.list({ stat, sync: true, onDir: (d) => dirs[1].push(d) });
      expect(byPath(listedSync)).toEqual(byPath(listed));
      expect(listedSync.find((f) => f.relPath.endsWith("leader/link.mime"))?.kind).toBe("symlink");
      expect([...dirs[1]].sort()).toEqual([...dirs[0]].sort());
    }
  });

  it("hands regular files over by folder and name when asked, the same files; links, folders and FIFOs stay in the listing", async () => {
    const secret = path.join(outside, "secret.mime");
    fs.writeFileSync(secret, "From: spy\n\n");
    fs.symlinkSync(secret, path.join(root, Q, "leader/link.mime"));
    fs.symlinkSync(outside, path.join(root, Q, "evil"));
    fs.symlinkSync(outside, path.join(root, Q, "leader/processed/dir_1795400000000001.mime"));
    fs.mkdirSync(path.join(root, Q, "leader/processed/x.mime"));
    spawnSync("mkfifo", [path.join(root, Q, "leader/fifo_1795400000000002.mime")]);
    const r = await open();
    for (const sync of [true, false]) {
      const whole = await r.list({ stat: false, sync });
      const byName: string[] = [];
      const dirs: string[] = [];
      const counted: number[] = [];
      const rest = await r.list({
        stat: false,
        sync,
        onDir: (d) => dirs.push(d),
        onListed: (n) => counted.push(n),
        plainFiles: (relDir, names) => byName.push(...names.map((n) => `${relDir}/${n}`)),
      });
      expect([...byName, ...rest.map((f) => f.relPath)].sort()).toEqual(whole.map((f) => f.relPath).sort());
      expect(byName.length).toBeGreaterThan(10);
      // Only regular files go by name: what is not one is listed with its own kind, from its lstat.
      for (const p of byName) expect(fs.lstatSync(path.join(root, p)).isFile(), p).toBe(true);
      const kinds = Object.fromEntries(rest.map((f) => [f.relPath.slice(Q.length + 1), f.kind]));
      expect(kinds).toEqual({
        "leader/link.mime": "symlink",
        "leader/processed/dir_1795400000000001.mime": "symlink",
        "leader/processed/x.mime": "directory",
        "leader/fifo_1795400000000002.mime": "other",
      });
      expect(dirs.some((d) => d.includes("evil") || d.includes("x.mime"))).toBe(false);
      expect(counted.reduce((a, b) => a + b, 0)).toBe(whole.length);
    }
  });

  it("tells each folder it reads, the ones to watch, and never one behind a link", async () => {
    fs.symlinkSync(outside, path.join(root, Q, "evil"));
    const r = await open();
    for (const stat of [true, false]) {
      const dirs: string[] = [];
      await r.list({ stat, onDir: (d) => dirs.push(d) });
      expect(dirs).toContain(path.join(root, Q));
      expect(dirs).toContain(path.join(root, Q, "leader/processed"));
      expect(dirs.some((d) => d.includes("evil"))).toBe(false);
    }
  });

  it("lists a directory named like a message", async () => {
    fs.mkdirSync(path.join(root, Q, "leader/processed/x.mime"));
    fs.writeFileSync(path.join(root, Q, "leader/processed/x.mime/inner.mime"), "From: a\n\n");
    const { found, parsed } = await parseAt(await open(), `${Q}/leader/processed/x.mime`);
    expect(found.kind).toBe("directory");
    expect(parsed).toMatchObject({ status: "invalid", problems: ["A directory is where a message file should be."] });
  });

  it("ignores temp files, dotfiles and non-.mime files, and lists the archive", async () => {
    fs.writeFileSync(path.join(root, Q, "leader/.x.mime.tmp-123"), "From: a\n\n");
    fs.writeFileSync(path.join(root, Q, "leader/notes.txt"), "x");
    fs.mkdirSync(path.join(root, ".ignite/archive/mailroom/queue/leader/processed"), { recursive: true });
    fs.copyFileSync(
      path.join(root, Q, "leader/processed/user_goal_1795134600214337.mime"),
      path.join(root, ".ignite/archive/mailroom/queue/leader/processed/old.mime"),
    );
    const r = await open();
    const paths = (await r.list()).map((f) => f.relPath);
    expect(paths.filter((p) => p.includes("tmp") || p.endsWith(".txt") || p.endsWith(".gitkeep"))).toEqual([]);
    const { parsed } = await parseAt(r, ".ignite/archive/mailroom/queue/leader/processed/old.mime");
    expect(parsed).toMatchObject({ status: "discarded", rawStatus: "delivered", type: "user_goal" });
  });

  it("tells as it goes how many files each folder added, with or without stats", async () => {
    const r = await open();
    for (const stat of [true, false]) {
      const counts: number[] = [];
      const found = await r.list({ stat, onListed: (n) => counts.push(n) });
      expect(counts.length).toBeGreaterThan(1);
      expect(counts.every((n) => n > 0)).toBe(true);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(found.length);
    }
  });

  it("reads only the headers of a file over 8 MiB", async () => {
    const head = "Message-ID: <big@ignite.local>\nFrom: a\nTo: leader\nDate: Fri, 20 Nov 2026 09:00:00 +0900\nX-IGNITE-Type: big\n\n";
    fs.writeFileSync(path.join(root, Q, "leader/big.mime"), head + "x: y\n".repeat((MAX_FILE_BYTES + 4096) / 5));
    const r = await open();
    const { found, parsed } = await parseAt(r, `${Q}/leader/big.mime`);
    expect(found.size).toBeGreaterThan(MAX_FILE_BYTES);
    expect(parsed).toMatchObject({ status: "queued", type: "big", messageId: "<big@ignite.local>", body: "" });
    expect(parsed.problems).toEqual([`The file is larger than 8 MiB (${found.size} bytes); only its headers were read.`]);
    const unread = await r.parse({ relPath: found.relPath, placement: { agent: "leader", folder: "queue" }, bytes: null, found });
    expect(unread).toMatchObject({ status: "queued", body: "", messageId: null });
    expect(unread.problems[0]).toMatch(/larger than 8 MiB .*it was not read/);
  });

  it("marks binary bytes invalid and invalid UTF-8 as a problem", async () => {
    fs.writeFileSync(path.join(root, Q, "leader/bin.mime"), Buffer.from([0x4d, 0x3a, 0x20, 0x00, 0xff, 0x0a, 0x0a, 0x00, 0x01]));
    fs.writeFileSync(path.join(root, Q, "leader/latin1.mime"),
      Buffer.concat([Buffer.from("Message-ID: <l@x>\nFrom: a\nTo: b\nDate: Fri, 20 Nov 2026 09:00:00 +0900\n\nnote: caf"), Buffer.from([0xe9, 0x0a])]));
    const r = await open();
    const bin = (await parseAt(r, `${Q}/leader/bin.mime`)).parsed;
    expect(bin).toMatchObject({ status: "invalid", body: "", problems: ["The file holds binary data (NUL bytes), not message text."] });
    const latin = (await parseAt(r, `${Q}/leader/latin1.mime`)).parsed;
    expect(latin.status).toBe("queued");
    expect(latin.problems).toEqual(["The file is not valid UTF-8; bytes that could not be decoded are shown as \uFFFD."]);
    expect(latin.body).toBe("note: caf\uFFFD\n");
  });

  it("skips unreadable folders without failing", async () => {
    const r = await open();
    fs.rmSync(path.join(root, Q, "leader"), { recursive: true });
    expect((await r.list()).some((f) => f.relPath.includes("/leader/"))).toBe(false);
  });
});

describe("acceptByFolder", () => {
  it("accepts exactly the paths placeIgnite places, asking once per folder", () => {
    const folders = ["", ".ignite", ".ignite/queue", ".ignite/queue/leader", ".ignite/queue/leader/processed", ".ignite/queue/dead_letter",
      ".ignite/queue/dead_letter/processed", ".ignite/queue/.hidden", ".ignite/queue/bad name", ".ignite/archive/mailroom/queue/leader",
      ".ignite/archive/mailroom/queue/leader/processed", ".ignite/queue/leader/processed/deeper", "queue/leader"];
    const names = ["a.mime", "a.yaml", ".a.mime", "a.mime.tmp-1", "a.txt", "mime", ".mime", "a.MIME", "x.yaml.mime"];
    for (const prefix of [".ignite/", ""]) {
      const placed: string[] = [];
      const place = (relPath: string) => (placed.push(relPath), placeIgnite(prefix, relPath));
      const accept = acceptByFolder(place);
      const acceptIn = acceptNamesIn(place);
      for (const folder of folders) {
        const acceptName = acceptIn(folder);
        for (const name of names) {
          const relPath = folder === "" ? name : `${folder}/${name}`;
          expect(accept(relPath), `${prefix} ${relPath}`).toBe(placeIgnite(prefix, relPath) !== null);
          expect(acceptName(name), `by name: ${prefix} ${relPath}`).toBe(placeIgnite(prefix, relPath) !== null);
        }
      }
      // Two probes per folder (one per ending) for each, and the odd names (no ending, a leading dot) each.
      expect(placed.length).toBeLessThan(2 * folders.length * names.length);
    }
  });
});
