import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ignite } from "@/lib/protocols/fixtures";
import { getMessage } from "@/lib/journal";
import { openHarness, type Harness } from "./test-harness";
import { requeueMessage } from "./index";

const { buildDeadLetter, buildMessage, markProcessing, setHeader } = ignite;

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(() => h.close());

const actor = "http://127.0.0.1:3000";
const NAME = "task_assignment_1795400000000001.mime";
const at = (agent: string, folder = "processed/") => `.ignite/queue/${agent}/${folder}${NAME}`;

describe("requeue of a dead letter whose message had several recipients", () => {
  it("goes back to the queue it was dead-lettered from, which the journal saw, not the first To", async () => {
    const text = buildMessage({ from: "coordinator", to: ["ignitian_1", "ignitian_2"], type: "task_assignment", body: 'task_id: "t9"\n', date: new Date("2026-11-20T00:00:00Z") });
    const picked = markProcessing(text, new Date("2026-11-20T00:01:00Z"));
    fs.writeFileSync(h.abs(at("ignitian_1")), setHeader(picked, "X-IGNITE-Status", "delivered"));
    const failing = setHeader(picked, "X-IGNITE-Retry-Count", "3");
    fs.writeFileSync(h.abs(at("ignitian_2")), failing);
    await h.service.scanNow();

    // The monitor gives up on ignitian_2's copy: the letter is written and the copy deleted.
    const letterRel = `.ignite/queue/dead_letter/task_assignment_1795400000000001_dlq_1795400400.mime`;
    fs.writeFileSync(h.abs(letterRel), buildDeadLetter(failing, NAME, { retryCount: 3, maxRetries: 3, lastError: "timeout after 3 retries", movedAt: new Date("2026-11-20T00:30:00Z") }));
    fs.unlinkSync(h.abs(at("ignitian_2")));
    await h.service.scanNow();

    const letterKey = h.keyAt(letterRel);
    const held = h.summary(h.summary(letterKey)?.deadLetterOf ?? "");
    expect(held).toMatchObject({ agent: "ignitian_2", status: "dead" });
    expect(h.summary(h.keyAt(at("ignitian_1")))).toMatchObject({ status: "delivered" });

    const detail = await getMessage(letterKey);
    expect(detail?.actions.find((a) => a.id === "requeue")?.queue).toBe("ignitian_2");
    expect(await requeueMessage(letterKey, { path: letterRel, actor })).toMatchObject({ path: at("ignitian_2", "") });
    expect(h.exists(at("ignitian_1", ""))).toBe(false);
  });
});
