// Every thread id the list can show opens: ids a file's X-IGNITE-Thread-ID can hold that an
// address would lose ("." and ".." are resolved away, a tab or DEL, "~", "%", "/", a 5,000-char id).
import fs from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keys, routes } from "@/lib/client/keys";
import { threadIdAt } from "@/lib/journal";
import { openIngestedWorkspace, type IngestedWorkspace } from "@/lib/testing/ingested-workspace";
import type { ThreadDetail, ThreadList } from "@/lib/threads/model";
import { GET as list } from "./route";
import { GET as detail } from "./[id]/route";
import { GET as exportThread } from "./[id]/export/route";

const HOSTILE_IDS = [".", "..", "thr\ttab", "thr\u007fdel", "~home", "~h0123456789abcdef", "a/b", "a?b#c", "a%2Fb", "100%", "L".repeat(300), "x".repeat(5000), "スレッド", "😀".repeat(600)];

let workspace: IngestedWorkspace;
beforeAll(async () => {
  workspace = await openIngestedWorkspace();
  const queue = path.join(workspace.ws, ".ignite", "queue", "leader");
  HOSTILE_IDS.forEach((id, i) => {
    const mime = `MIME-Version: 1.0\nMessage-ID: <hostile${i}@t>\nFrom: coordinator\nTo: leader\nDate: Fri, 20 Nov 2026 10:00:00 +0900\nX-IGNITE-Type: note\nX-IGNITE-Thread-ID: ${id}\n\ntext: hi\n`;
    fs.writeFileSync(path.join(queue, `note_${1795136392000100 + i}.mime`), mime);
  });
  await workspace.scanNow();
});
afterAll(() => workspace.close());

/** The [id] param Next.js hands a route for a link: the path segment as the browser sends it, decoded once. */
function paramOf(link: string, prefix: string, suffix = ""): string {
  const { pathname } = new URL(link, "http://127.0.0.1:3000");
  expect(pathname.startsWith(prefix) && !pathname.slice(prefix.length, pathname.length - suffix.length).includes("/"), `${link.slice(0, 40)} kept its segment`).toBe(true);
  return decodeURIComponent(pathname.slice(prefix.length, pathname.length - suffix.length));
}

describe("a thread id in an address", () => {
  it("every listed id opens, by the page's link and the API's", async () => {
    const listed = ((await (await list(new NextRequest("http://127.0.0.1:3000/api/threads?limit=1000"))).json()) as ThreadList).items.map((t) => t.id);
    expect(listed).toEqual(expect.arrayContaining(HOSTILE_IDS));
    for (const id of HOSTILE_IDS) {
      const label = JSON.stringify(id.slice(0, 20));
      // The page's link keeps its one segment (the page decodes its param as a route's is).
      expect(threadIdAt(paramOf(routes.thread(id), "/threads/")), label).toBe(id);
      // The API and its export.
      const res = await detail(new Request("http://127.0.0.1:3000/"), { params: Promise.resolve({ id: paramOf(keys.thread(id), "/api/threads/") }) });
      expect(res.status, label).toBe(200);
      expect(((await res.json()) as ThreadDetail).id, label).toBe(id);
      const exportLink = keys.threadExport(id, "json");
      const exported = await exportThread(new Request(`http://127.0.0.1:3000${exportLink}`), { params: Promise.resolve({ id: paramOf(exportLink.split("?")[0] ?? "", "/api/threads/", "/export") }) });
      expect(exported.status, label).toBe(200);
    }
  });

  it("an address no thread has is a 404, not another thread", async () => {
    expect(threadIdAt("~h" + "0".repeat(16))).toBeNull();
    expect(threadIdAt("nope")).toBeNull();
    const res = await detail(new Request("http://127.0.0.1:3000/"), { params: Promise.resolve({ id: "~~nope" }) });
    expect(res.status).toBe(404);
  });
});
