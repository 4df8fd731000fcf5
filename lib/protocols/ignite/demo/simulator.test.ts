import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { buildMessage, getHeader, retryCountOf } from "../build";
import { seededRandom } from "@/lib/demo/random";
import { Simulator } from "./simulator";
import { FakeClock, walk } from "@/lib/demo/testing";
import { layoutProblems, runFor } from "./testing";
import { createDemoWorkspace } from "./workspace";

const START = Date.parse("2026-11-20T09:00:00+09:00");
let parent: string;

beforeEach(() => {
  parent = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-sim-test-"));
});
afterEach(() => {
  fs.rmSync(parent, { recursive: true, force: true });
});

const mimeFiles = (ignite: string) => walk(path.join(ignite, "queue")).filter((f) => f.endsWith(".mime"));
const read = (ignite: string, rel: string) => fs.readFileSync(path.join(ignite, "queue", rel), "utf8");

describe("a simulated session", () => {
  it("plays goals, retries, dead-letters, escalates and deletes, as the tools would", () => {
    const { workspace, igniteDir } = createDemoWorkspace({ parentDir: parent, seed: false, random: seededRandom(7) });
    const clock = new FakeClock(START);
    const sim = new Simulator({ workspace, speed: 1, random: seededRandom(42), now: clock.now, onError: (e) => { throw e; } });

    const seen = new Map<string, string>(); // path → last text
    let sawRetrying = false;
    let sawTemp = false;
    let ticks = 0;
    runFor(sim, clock, 240_000, 250, () => {
      // Once per simulated second: every state a file passes through lasts at least 2 s (a poll).
      if (ticks++ % 4 !== 0) return;
      for (const rel of walk(igniteDir)) if (path.basename(rel).startsWith(".")) sawTemp = true;
      for (const rel of mimeFiles(igniteDir)) {
        const text = read(igniteDir, rel);
        seen.set(rel, text);
        // A retrying message sits in queue/<agent>/ (not processed/) until picked up again.
        if (rel.split("/").length === 2 && getHeader(text, "X-IGNITE-Status") === "retrying") sawRetrying = true;
      }
    });
    sim.stop();

    expect(sawTemp).toBe(false);
    expect(sawRetrying).toBe(true);
    expect(sim.cycles).toBeGreaterThanOrEqual(2);

    // Every file the run wrote has the builder's layout.
    for (const [rel, text] of seen) expect([rel, layoutProblems(text)]).toEqual([rel, []]);

    // The whole conversation happened, in threads, with In-Reply-To chains to real messages.
    const texts = [...seen.values()];
    const types = new Set(texts.map((t) => getHeader(t, "X-IGNITE-Type")));
    for (const type of [
      "user_goal", "strategy_request", "strategy_response", "task_list", "task_assignment", "task_completed",
      "evaluation_request", "evaluation_result", "progress_update", "improvement_request", "dead_letter", "escalation",
    ]) expect(types).toContain(type);
    const ids = new Set(texts.map((t) => getHeader(t, "Message-ID")));
    for (const text of texts) {
      const reply = getHeader(text, "In-Reply-To");
      if (reply) expect(ids).toContain(reply);
    }
    const goals = texts.filter((t) => getHeader(t, "X-IGNITE-Type") === "user_goal");
    expect(new Set(goals.map((t) => getHeader(t, "X-IGNITE-Thread-ID"))).size).toBeGreaterThanOrEqual(2);

    // A dead letter holding the original after three retries; the original is gone.
    const dead = mimeFiles(igniteDir).filter((f) => f.startsWith("dead_letter/"));
    expect(dead.length).toBeGreaterThanOrEqual(1);
    const letter = read(igniteDir, dead[0] ?? "");
    expect(getHeader(letter, "From")).toBe("queue_monitor");
    expect(getHeader(letter, "X-IGNITE-Status")).toBe("dead_letter");
    expect(letter).toContain("  X-IGNITE-Retry-Count: 3\n");
    const original = /original_file: "(.+)"/.exec(letter)?.[1] ?? "";
    expect(dead[0]).toMatch(new RegExp(`^dead_letter/${original.replace(".mime", "")}_dlq_\\d{10}\\.mime$`));
    expect(mimeFiles(igniteDir).some((f) => path.basename(f) === original)).toBe(false);

    // The escalation was renamed by the monitor to a 16-digit name when it was picked up.
    const escalations = [...seen.keys()].filter((f) => f.startsWith("leader/") && f.includes("escalation_"));
    expect(escalations.some((f) => /^leader\/escalation_\d{10}\.mime$/.test(f))).toBe(true);
    expect(escalations.some((f) => /^leader\/processed\/escalation_\d{16}\.mime$/.test(f))).toBe(true);

    // A silent ignitian recovered after one retry (odd cycle).
    expect(texts.some((t) => retryCountOf(t) === 1 && getHeader(t, "X-IGNITE-Status") === "delivered")).toBe(true);

    // Agents deleted some handled files (not moved: their Message-ID is nowhere on disk now).
    const onDisk = new Set(mimeFiles(igniteDir).map((f) => getHeader(read(igniteDir, f), "Message-ID")));
    const deleted = [...seen].filter(([rel, text]) => rel.includes("/processed/") && !onDisk.has(getHeader(text, "Message-ID")));
    expect(deleted.length).toBeGreaterThan(5);

    // Files are 0600; the monitor's log tells the story like upstream's.
    for (const rel of mimeFiles(igniteDir)) expect(fs.statSync(path.join(igniteDir, "queue", rel)).mode & 0o777).toBe(0o600);
    const log = fs.readFileSync(path.join(igniteDir, "logs", "queue_monitor.log"), "utf8");
    expect(log).toMatch(/^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\] \[WARN\] リトライ上限到達: task_assignment_\d{16}\.mime \(3\/3\)$/m);
    expect(log).toMatch(/\[RETRY\] リトライ完了: .+ \(試行: 1, 次回リトライ: .+\)/);
    expect(log).toMatch(/\[OK\] エージェント leader \(idx 0\) にメッセージを送信しました/);
  });

  it("tells the README's story once per goal: at most one dead letter, each with one escalation, never a pile", () => {
    const { workspace, igniteDir } = createDemoWorkspace({ parentDir: parent, seed: false, random: seededRandom(5) });
    const clock = new FakeClock(START);
    const sim = new Simulator({ workspace, random: seededRandom(11), now: clock.now, deleteProcessed: false, onError: (e) => { throw e; } });
    runFor(sim, clock, 4 * 60_000, 250);
    sim.stop();
    const letters = mimeFiles(igniteDir).filter((f) => f.startsWith("dead_letter/")).map((f) => read(igniteDir, f));
    const threads = letters.map((t) => /X-IGNITE-Thread-ID: (\S+)/.exec(t)?.[1]);
    expect(sim.cycles).toBeGreaterThanOrEqual(4);
    expect(letters.length).toBeGreaterThanOrEqual(1);
    // Even goals end in a dead letter, odd ones recover after a retry.
    expect(letters.length).toBeLessThanOrEqual(Math.ceil(sim.cycles / 2));
    expect(new Set(threads).size).toBe(letters.length);
    const escalations = mimeFiles(igniteDir).filter((f) => getHeader(read(igniteDir, f), "X-IGNITE-Type") === "escalation");
    expect(escalations).toHaveLength(letters.length);
  });

  it("answers messages it did not write and normalizes odd file names", () => {
    const { workspace, igniteDir } = createDemoWorkspace({ parentDir: parent, seed: false });
    const clock = new FakeClock(START);
    const sim = new Simulator({ workspace, random: seededRandom(3), now: clock.now, maxCycles: 0, onError: (e) => { throw e; } });
    const goal = buildMessage({
      from: "user", to: ["leader"], type: "user_goal", threadId: "thr_custom_1", repository: "me/mine", issue: 7,
      body: 'goal: "Write the changelog"\n', date: clock.now(), messageId: "<1.2.3@ignite.local>",
    });
    fs.writeFileSync(path.join(igniteDir, "queue", "leader", "user_goal_1795134600.mime"), goal, { mode: 0o600 });
    const seen = new Map<string, string>();
    runFor(sim, clock, 15_000, 250, () => {
      for (const rel of mimeFiles(igniteDir)) seen.set(rel, read(igniteDir, rel));
    });
    sim.stop();
    // Renamed from its Date header (seconds) + 6 digits, as `normalize_filename` does.
    const renamed = new RegExp(`^leader/processed/user_goal_${START / 1000}\\d{6}\\.mime$`);
    expect([...seen.keys()].some((f) => renamed.test(f))).toBe(true);
    const request = [...seen.values()].find((t) => getHeader(t, "X-IGNITE-Type") === "strategy_request");
    expect(request && getHeader(request, "In-Reply-To")).toBe("<1.2.3@ignite.local>");
    expect(request && getHeader(request, "X-IGNITE-Thread-ID")).toBe("thr_custom_1");
    expect(request).toContain('goal: "Write the changelog"');
  });

  it("stops writing when stopped", async () => {
    const { workspace, igniteDir } = createDemoWorkspace({ parentDir: parent, seed: false });
    const sim = new Simulator({ workspace, speed: 20 });
    sim.start();
    const logFile = path.join(igniteDir, "logs", "queue_monitor.log");
    // Running until its monitor has seen the first goal (a fixed 0.7 s was too little on a busy machine).
    await vi.waitFor(() => expect(fs.existsSync(logFile) && fs.readFileSync(logFile, "utf8")).toContain("新規メッセージ検知: user_goal_"), { timeout: 60_000, interval: 50 });
    sim.stop();
    const snapshot = () =>
      walk(igniteDir).map((rel) => {
        const stat = fs.statSync(path.join(igniteDir, rel));
        return `${rel} ${stat.size} ${stat.mtimeMs}`;
      });
    const before = snapshot();
    const log = fs.readFileSync(path.join(igniteDir, "logs", "queue_monitor.log"), "utf8");
    expect(log).toContain("新規メッセージ検知: user_goal_");
    await new Promise((resolve) => setTimeout(resolve, 400));
    sim.tick();
    expect(snapshot()).toEqual(before);
  });
});

describe("createDemoWorkspace", () => {
  it("lays out the runtime folder and seeds one finished goal", () => {
    const { workspace, igniteDir, session } = createDemoWorkspace({ parentDir: parent, random: seededRandom(1) });
    expect(path.dirname(workspace)).toBe(parent);
    for (const agent of ["leader", "strategist", "architect", "evaluator", "coordinator", "innovator", "ignitian_1", "ignitian_2", "ignitian_3"]) {
      expect(fs.statSync(path.join(igniteDir, "queue", agent, "processed")).isDirectory()).toBe(true);
    }
    expect(fs.statSync(path.join(igniteDir, "queue", "dead_letter")).isDirectory()).toBe(true);
    expect(fs.readFileSync(path.join(igniteDir, "runtime.yaml"), "utf8")).toContain(`session_name: "${session}"`);
    const files = mimeFiles(igniteDir);
    expect(files.length).toBeGreaterThan(10);
    for (const rel of files) {
      const text = read(igniteDir, rel);
      expect(rel).toMatch(/^[a-z_0-9]+\/processed\/[a-z_]+_\d{16}\.mime$/);
      expect([rel, layoutProblems(text)]).toEqual([rel, []]);
      expect(getHeader(text, "X-IGNITE-Status")).toBe("delivered");
      expect(fs.statSync(path.join(igniteDir, "queue", rel)).mode & 0o777).toBe(0o600);
      // History: everything happened before now.
      expect(fs.statSync(path.join(igniteDir, "queue", rel)).mtimeMs).toBeLessThan(Date.now());
    }
    expect(walk(igniteDir).some((rel) => path.basename(rel).startsWith("."))).toBe(false);
  });
});
