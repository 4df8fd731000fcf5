import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openIgnite } from "@/lib/protocols/ignite/reader";
import { copyFixture } from "@/lib/testing/fixtures";
import { ReadPool } from "./read-pool";
import { prepareFile, type ReadableSource } from "./sync";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function fixtureSource(): Promise<ReadableSource> {
  const root = copyFixture("ignite");
  dirs.push(root);
  const reader = await openIgnite(root);
  if (!reader) throw new Error("fixture is not an IGNITE workspace");
  return { id: "s", protocol: "ignite", root, reader, error: null };
}

describe("ReadPool", () => {
  it("prepares files on worker threads exactly as the main thread does", async () => {
    const source = await fixtureSource();
    const files = await source.reader.list({ stat: false });
    const pool = ReadPool.open();
    expect(pool).not.toBeNull();
    try {
      const onWorkers = await pool?.prepare(source, files);
      const here = [];
      for (const f of files) here.push(await prepareFile(source, f));
      expect(onWorkers).toEqual(here.filter((p) => p !== null));
      expect(onWorkers?.find((p) => p.record.raw)?.record.raw).toBeInstanceOf(Buffer);
    } finally {
      pool?.close();
    }
  });

  it("rejects with a reason when a worker cannot read the source", async () => {
    const source = await fixtureSource();
    const gone = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-not-a-workspace-"));
    dirs.push(gone);
    const pool = ReadPool.open();
    try {
      await expect(pool?.prepare({ ...source, root: gone }, [])).rejects.toThrow(`no ignite workspace at ${gone} any more`);
    } finally {
      pool?.close();
    }
  });
});
