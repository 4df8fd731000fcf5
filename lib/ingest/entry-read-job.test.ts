// The worker's side of reading ahead (entry-read-job.ts), called here directly: a file read as the
// load reads it, and one that grew past what is read ahead since it was listed left to the load.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { copyFixture } from "@/lib/testing/fixtures";
import { tempDirs } from "@/lib/testing/temp-dirs";
import { listEntryFiles } from "./entry-files";
import { readEntriesAhead } from "./entry-read-job";
import { discoverSources } from "./sources";

const temp = tempDirs();

async function kicklang() {
  const root = copyFixture("kicklang", path.join(temp("mailroom-read-job-"), "workspace"));
  const source = (await discoverSources([root])).flatMap((s) => (s.entries ? [s.entries] : [])).find((s) => s.protocol === "kicklang")!;
  const { files } = await listEntryFiles(source.layout, source.side);
  const file = files.find((f) => f.place.role === "channel")!;
  return { source, file };
}

const job = (layout: Parameters<typeof readEntriesAhead>[0]["layouts"][number], file: Parameters<typeof readEntriesAhead>[0]["files"][number]["file"], maxBytes: number) => ({
  kind: "readEntries" as const, id: 1, layouts: [layout], files: [{ layout: 0, file }], context: {}, chunkBytes: 256, maxBytes,
});

describe("readEntriesAhead", () => {
  it("hands back a channel's chunks as the load would read them", async () => {
    const { source, file } = await kicklang();
    const answer = await readEntriesAhead(job(source.layout, file, 8 * 1024 * 1024));
    if (!("read" in answer)) throw new Error(answer.error);
    const [read] = answer.read;
    if (!read || !("chunks" in read)) throw new Error(`not read: ${JSON.stringify(read)}`);
    expect(read.chunks.at(-1)!.chunk.facts.consumed).toBe(fs.statSync(path.join(source.root, file.relPath)).size);
    expect(read.chunks.flatMap((c) => c.chunk.read.entries).length).toBeGreaterThan(0);
  });

  it("leaves a file that grew past what is read ahead to the load, which reads it a chunk at a time", async () => {
    const { source, file } = await kicklang();
    const answer = await readEntriesAhead(job(source.layout, file, 300));
    if (!("read" in answer)) throw new Error(answer.error);
    expect(answer.read[0]).toEqual({ failed: expect.stringMatching(/grew past 300 bytes/) });
  });
});
