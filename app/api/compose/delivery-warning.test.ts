// Compose warns before writing where no agent reads: the route handler called directly.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openIngestedWorkspace, type IngestedWorkspace } from "@/lib/testing/ingested-workspace";
import { POST } from "./route";

let w: IngestedWorkspace;
beforeAll(async () => {
  w = await openIngestedWorkspace();
});
afterAll(() => w.close());

const ORIGIN = "http://127.0.0.1:3000";
const post = (body: object) =>
  POST(new Request(`${ORIGIN}/api/compose`, { method: "POST", headers: { "content-type": "application/json", origin: ORIGIN, host: "127.0.0.1:3000" }, body: JSON.stringify(body) }));
type Answer = { items?: { path: string; warning?: string | null }[]; error?: { code: string; message: string } };
const message = { from: "user", type: "user_goal", body: 'goal: "x"\n' };

describe("compose where no agent reads", () => {
  it("warns in the preview and refuses to send, writing nothing, until confirmed: a queue the monitor does not scan", async () => {
    fs.mkdirSync(path.join(w.ws, ".ignite", "queue", "reviewer"));
    const preview = (await (await post({ ...message, to: ["reviewer", "leader"], dryRun: true })).json()) as Answer;
    expect(preview.items?.map((i) => i.warning)).toEqual([expect.stringContaining("does not scan queue/reviewer/"), null]);

    const before = w.tree();
    const refused = await post({ ...message, to: ["reviewer"] });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as Answer).error).toMatchObject({ code: "unconfirmed_warning", message: expect.stringContaining("confirmWarnings") });
    expect(w.tree()).toEqual(before);

    expect((await post({ ...message, to: ["reviewer"], confirmWarnings: true })).status).toBe(201);
  });

  it("warns of an agent with no session where the team keeps sessions", async () => {
    fs.writeFileSync(path.join(w.ws, ".ignite", "state", ".agent_session_0"), "s-leader\n");
    const preview = (await (await post({ ...message, to: ["leader", "ignitian_2"], dryRun: true })).json()) as Answer;
    expect(preview.items?.map((i) => i.warning)).toEqual([null, expect.stringContaining("ignitian_2 has no session (state/.agent_session_7")]);
    expect((await post({ ...message, to: ["leader"] })).status).toBe(201);
  });
});
