// Issue point 3: Mailroom's inbox writes beside the agents' own writers lose nothing. A shell
// writer that follows the agents' lock protocol (mkdir .lock.d, flock, temp + rename) appends 200
// entries from 10 parallel lanes while Mailroom sends and marks read (through the Mark read action
// the console runs); a reader polls the inbox throughout and parses every snapshot it sees.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setImmediate as tick } from "node:timers/promises";
import { parse } from "yaml";
import { afterEach, expect, it } from "vitest";
import { ApiError } from "@/lib/server/errors";
import { read } from "./read";
import type { ActionSubject } from "@/lib/protocols/actions";
import { planAction } from "./action-run";
import { planSend, run } from "./writer";

const LANES = 10;
const PER_LANE = 20;
const MAILROOM_SENDS = 20;
const MAILROOM_WORKERS = 4;

// Polls .lock.d every 100 ms as inbox_write.sh does, and appends one fixed-format entry (safe YAML: the list is block style and the last key) per write.
const WRITER = `#!/bin/bash
set -e
inbox=$1; lane=$2; count=$3
for i in $(seq 1 "$count"); do
  until mkdir "$inbox.lock.d" 2>/dev/null; do sleep 0.1; done
  exec 200>"$inbox.lock"
  flock -x 200
  tmp=$(mktemp "$(dirname "$inbox")/tmpXXXXXXXX.tmp")
  cat "$inbox" > "$tmp"
  printf -- "- content: 'shell %s-%s'\\n  from: ashigaru1\\n  id: msg_20260101_000000_sh%03d%03d\\n  read: false\\n  timestamp: '2026-01-01T00:00:00'\\n  type: wake_up\\n" "$lane" "$i" "$lane" "$i" >> "$tmp"
  mv "$tmp" "$inbox"
  exec 200>&-
  rmdir "$inbox.lock.d"
done
`;

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** Mailroom's write, retried when the locks stay busy for 5 s (a clear 409, counted). */
async function withRetry<T>(fn: () => Promise<T>, busy: { count: number }): Promise<T> {
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof ApiError && err.code === "locked")) throw err;
      busy.count++;
    }
  }
}

it("loses and duplicates nothing, and every snapshot a reader sees parses", { timeout: 300_000 }, async () => {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-shogun-race-"));
  dirs.push(ws);
  fs.mkdirSync(path.join(ws, "queue/inbox"), { recursive: true });
  const inbox = path.join(ws, "queue/inbox/karo.yaml");
  fs.writeFileSync(inbox, "messages:\n- content: seed\n  from: shogun\n  id: msg_seed\n  read: false\n  timestamp: '2026-01-01T00:00:00'\n  type: cmd_new\n");
  fs.writeFileSync(path.join(ws, "writer.sh"), WRITER, { mode: 0o755 });

  const lanes = Array.from({ length: LANES }, (_, lane) => new Promise<number | null>((resolve) => {
    const child = spawn("bash", [path.join(ws, "writer.sh"), inbox, String(lane), String(PER_LANE)], { stdio: "inherit" });
    child.on("close", resolve);
  }));
  let shellDone = false;
  const shell = Promise.all(lanes).then((codes) => ((shellDone = true), codes));

  let snapshots = 0;
  const poller = (async () => {
    while (!shellDone) {
      const text = fs.readFileSync(inbox, "utf8");
      // A reader that sees a truncated or half-written inbox fails here (no `messages:` list).
      const data = parse(text) as { messages?: unknown } | null;
      expect(Array.isArray(data?.messages), `snapshot ${snapshots}: ${text.slice(0, 200)}`).toBe(true);
      snapshots++;
      await tick();
    }
  })();

  const busy = { count: 0 };
  const sent: string[] = [];
  const marked: string[] = [];
  let interleaved = 0;
  // Mailroom writes from several workers at once, each sending and then marking its message read every other time.
  const worker = async (w: number) => {
    for (let i = w; i < MAILROOM_SENDS; i += MAILROOM_WORKERS) {
      const [id = ""] = (await withRetry(async () => run(ws, await planSend(ws, { to: "karo", from: "shogun", type: "cmd_new", content: `mailroom ${i}` })), busy)).ids;
      sent.push(id);
      if (!shellDone) interleaved++;
      // A message marked read may then be trimmed by the overflow rule; an unread one never is.
      if (i % 2 === 1) {
        // Through the action path the console's Mark read takes (action-run.ts), minus the journal.
        const subject: ActionSubject = {
          key: id, protocol: "shogun", path: "queue/inbox/karo.yaml", locator: id, agent: "karo", folder: "inbox", status: "unread",
          type: "cmd_new", messageId: id, from: "shogun", to: ["karo"], body: "", data: null, heldAgent: null,
        };
        await withRetry(async () => (await planAction(ws, "mark-read", subject, {})).run(), busy);
        marked.push(id);
        if (!shellDone) interleaved++;
      }
    }
  };
  await Promise.all(Array.from({ length: MAILROOM_WORKERS }, (_, w) => worker(w)));
  expect(await shell).toEqual(Array(LANES).fill(0));
  await poller;

  const final = (parse(fs.readFileSync(inbox, "utf8")) as { messages: Array<{ id: string; read: boolean }> }).messages;
  const ids = final.map((m) => m.id);
  const shellIds = Array.from({ length: LANES * PER_LANE }, (_, k) => `msg_20260101_000000_sh${String(Math.floor(k / PER_LANE)).padStart(3, "0")}${String((k % PER_LANE) + 1).padStart(3, "0")}`);
  const mustStay = [...shellIds, "msg_seed", ...sent.filter((id) => !marked.includes(id))];
  const lost = mustStay.filter((id) => !ids.includes(id));
  const duplicates = ids.length - new Set(ids).size;
  const wrongFlag = final.filter((m) => marked.includes(m.id) !== m.read).map((m) => m.id);
  console.log(`shogun race: ${shellIds.length} shell writes + ${sent.length} sends + ${marked.length} marks; ${interleaved} of Mailroom's writes while the shell wrote; busy retries ${busy.count}; lost ${lost.length}; duplicates ${duplicates}; snapshots parsed ${snapshots}; final ${final.length} messages`);
  expect({ lost, duplicates, wrongFlag }).toEqual({ lost: [], duplicates: 0, wrongFlag: [] });
  expect(read("queue/inbox/karo.yaml", fs.readFileSync(inbox)).entries.map((e) => e.messageId)).toEqual(ids);
  expect(snapshots).toBeGreaterThan(LANES);
  expect(interleaved).toBeGreaterThan(0);
  expect(fs.readdirSync(path.dirname(inbox)).sort()).toEqual(["karo.yaml", "karo.yaml.lock"]);
});
