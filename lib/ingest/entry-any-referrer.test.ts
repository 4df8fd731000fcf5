// An adapter that settles by any referrer (ProtocolReadSide.settlesByAnyReferrer) lets an append
// settle the entries it names without reading what else names them. The journal a stream of appends
// leaves must be exactly the one it leaves when everything that names them is read and settled again.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeJournals, openJournal } from "@/lib/journal/store";
import { dumpJournal as dump } from "@/lib/testing/journal-dump";
import { tempDirs } from "@/lib/testing/temp-dirs";
import { generateKicklang } from "@/lib/bench/generate-wave2";
import { discoverSources } from "./sources";
import { EntryIngest, type EntrySource } from "./entry-ingest";

const temp = tempDirs();
afterEach(() => closeJournals());

const NOW = Date.parse("2026-11-26T12:00:00Z");

/** Every file under `dir`, relative to it. */
const filesUnder = (dir: string): string[] =>
  fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((rel) => fs.statSync(path.join(dir, rel)).isFile());

describe("a source whose adapter settles by any referrer", () => {
  it("journals a stream of appends (answers before and after their requests) as it does reading every referrer again", async () => {
    const whole = temp("mailroom-any-referrer-src-");
    generateKicklang(whole, 1_200);
    const root = temp("mailroom-any-referrer-ws-");
    const lines = new Map(filesUnder(whole).map((rel) => [rel, fs.readFileSync(path.join(whole, rel), "utf8").split(/(?<=\n)/)]));
    for (const rel of lines.keys()) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), "");
    }
    const [source] = (await discoverSources([root])).flatMap((s) => (s.entries ? [s.entries] : []));
    if (!source) throw new Error("no entry source");
    expect(source.side.settlesByAnyReferrer).toBe(true);
    const everyReferrer: EntrySource = { ...source, side: { ...source.side, settlesByAnyReferrer: false } };
    const data = temp("mailroom-any-referrer-db-");
    const files = { any: path.join(data, "any.db"), every: path.join(data, "every.db") };
    const any = new EntryIngest(openJournal(files.any).db, () => NOW);
    const every = new EntryIngest(openJournal(files.every).db, () => NOW);
    const rounds = 12;
    for (let r = 0; r < rounds; r++) {
      // Each file's next share; in odd rounds the answers' channels first, so some answers come before their requests.
      const order = [...lines.keys()].sort();
      for (const rel of r % 2 ? order.reverse() : order) {
        const all = lines.get(rel) ?? [];
        const part = all.slice(Math.floor((all.length * r) / rounds), Math.floor((all.length * (r + 1)) / rounds));
        fs.appendFileSync(path.join(root, rel), part.join(""));
        const abs = [path.join(root, rel)];
        await any.applyPaths(source, abs);
        await every.applyPaths(everyReferrer, abs);
      }
    }
    const got = dump(files.any);
    expect(got.messages!.length).toBe(1_200);
    expect(got.messages!.some((m) => m.includes('"status":"answered"'))).toBe(true);
    expect(got).toEqual(dump(files.every));
  }, 120_000);
});
