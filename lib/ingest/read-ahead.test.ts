import { describe, expect, it } from "vitest";
import { ReadAhead } from "./read-ahead";

interface F {
  name: string;
  size: number;
  whole: boolean;
}

const file = (name: string, size = 10, whole = true): F => ({ name, size, whole });

/** Reads that finish in reverse order of their start: what comes back must still be in the files' order. */
function reader(started: string[], fail: Set<string> = new Set()) {
  let delay = 50;
  return async (f: F, onChunk: (c: string) => Promise<void>) => {
    started.push(f.name);
    await new Promise((r) => setTimeout(r, (delay = Math.max(1, delay - 5))));
    if (fail.has(f.name)) throw new Error(`${f.name} failed`);
    await onChunk(`${f.name}:1`);
    await onChunk(`${f.name}:2`);
  };
}

describe("ReadAhead", () => {
  it("hands each file's chunks over in the files' order, and leaves files not eligible to the caller", async () => {
    const files = [file("a"), file("b"), file("channel", 10, false), file("c"), file("d")];
    const started: string[] = [];
    const ahead = new ReadAhead(files, (f) => f.whole, reader(started));
    const got: string[] = [];
    for (const [i, f] of files.entries()) {
      const early = ahead.take(i);
      if (!early) got.push(`${f.name}:in place`);
      else {
        const outcome = await early;
        if ("chunks" in outcome) got.push(...outcome.chunks);
      }
    }
    expect(got).toEqual(["a:1", "a:2", "b:1", "b:2", "channel:in place", "c:1", "c:2", "d:1", "d:2"]);
    expect(started.sort()).toEqual(["a", "b", "c", "d"]);
  });

  it("gives a read's failure to the file's own turn, never as an unhandled rejection", async () => {
    const files = [file("a"), file("bad"), file("c")];
    const ahead = new ReadAhead(files, () => true, reader([], new Set(["bad"])));
    const first = await ahead.take(0);
    // The failing read settles while nobody waits on it yet.
    await new Promise((r) => setTimeout(r, 100));
    const second = await ahead.take(1);
    const third = await ahead.take(2);
    expect(first).toEqual({ chunks: ["a:1", "a:2"] });
    expect(second).toMatchObject({ error: new Error("bad failed") });
    expect(third).toEqual({ chunks: ["c:1", "c:2"] });
  });

  it("holds at most 16 MB of files ahead, but always the file asked for", async () => {
    const mb = 1024 * 1024;
    const files = [file("a", 10 * mb), file("b", 10 * mb), file("c", 20 * mb)];
    const started: string[] = [];
    const ahead = new ReadAhead(files, () => true, reader(started));
    const a = ahead.take(0);
    expect(started).toEqual(["a"]);
    await a;
    const b = ahead.take(1);
    expect(started).toEqual(["a", "b"]);
    await b;
    await ahead.take(2);
    expect(started).toEqual(["a", "b", "c"]);
  });
});
