// A load holds problems about absent entries back while the entry may still come (see
// EntryWriter.apply) and settles them once it has read everything. Looking for them reads every
// reference of the source, so a load (a periodic rescan of a channel appended to) that held none
// back does not look.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { benchUuid, channelFile, envelopeLine, generateKicklang, reportEnvelope, STATUS } from "@/lib/bench/generate-wave2";
import { EntryWriter } from "@/lib/journal/entry-writer";
import { closeJournals, openJournal } from "@/lib/journal/store";
import { tempDirs } from "@/lib/testing/temp-dirs";
import { discoverSources } from "./sources";
import { EntryIngest } from "./entry-ingest";

const temp = tempDirs();
afterEach(() => {
  closeJournals();
  vi.restoreAllMocks();
});

describe("problems about absent entries a load held back", () => {
  it("are looked for when a load held one back, not after a load that held none", async () => {
    const root = temp("mailroom-held-ws-");
    generateKicklang(root, 40);
    const journal = openJournal(path.join(temp("mailroom-held-db-"), "journal.db"));
    const [source] = (await discoverSources([root])).flatMap((s) => (s.entries ? [s.entries] : []));
    if (!source) throw new Error("no entry source");
    const ingest = new EntryIngest(journal.db);
    await ingest.scan(source);
    const looked = vi.spyOn(EntryWriter.prototype, "namingAbsent");
    // An answer to a request journaled before: nothing absent.
    const request = benchUuid(5, 0);
    fs.appendFileSync(channelFile(root, STATUS), envelopeLine(reportEnvelope(benchUuid(7, 1), Date.now(), "WePlan", request, 0, 9, "again")));
    await ingest.scan(source);
    expect(looked).not.toHaveBeenCalled();
    // An answer to a request no channel holds: its problem is held back, then settled as the load ends.
    const absent = benchUuid(7, 999);
    fs.appendFileSync(channelFile(root, STATUS), envelopeLine(reportEnvelope(benchUuid(7, 2), Date.now(), "WePlan", absent, 0, 9, "lost")));
    await ingest.scan(source);
    expect(looked).toHaveBeenCalled();
    const problems = journal.db.prepare("SELECT problems FROM messages WHERE message_id = ?").pluck().get(benchUuid(7, 2)) as string;
    expect(problems).toContain(`The correlation id ${absent} names no envelope`);
  });
});
