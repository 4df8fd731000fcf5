import { describe, expect, it } from "vitest";
import { DEAD_LETTER_FOLDER, NAMED_COUNTS, PROTOCOLS } from "@/lib/model";
import { ALL_FOLDERS, ALL_STATUSES, CATALOGS, catalogOf, inStatusOrder, STATUS_TONES, statusDefinition } from "./catalog";
import { igniteYamlReadSide } from "./ignite-yaml";
import { kicklangReadSide } from "./kicklang";
import { shogunReadSide } from "./shogun";
import { workflowReadSide } from "./workflow";

describe("protocol catalogs", () => {
  it("has one catalog per protocol, each status once, with a known tone and a tooltip", () => {
    expect(CATALOGS.map((c) => c.protocol).sort()).toEqual([...PROTOCOLS].sort());
    for (const c of CATALOGS) {
      const ids = c.statuses.map((s) => s.id);
      expect(new Set(ids).size, c.protocol).toBe(ids.length);
      for (const s of c.statuses) {
        expect(STATUS_TONES, `${c.protocol} ${s.id}`).toContain(s.tone);
        expect(s.help.length, `${c.protocol} ${s.id}`).toBeGreaterThan(0);
      }
      for (const col of c.columns) expect(ids, `${c.protocol} column ${col}`).toContain(col);
    }
  });

  it("keeps IGNITE v3's statuses exactly, with no generic gone", () => {
    expect(catalogOf("ignite").statuses.map((s) => s.id)).toEqual([
      "queued", "retrying", "processing", "error", "delivered", "completed", "cleared", "dead", "discarded", "requeued", "invalid",
    ]);
    expect(statusDefinition("cleared", "ignite")).toMatchObject({ tone: "orange", state: "done" });
  });

  it("lists every status a wave-2 read side declares, and gone for an entry no file holds any more", () => {
    for (const side of [igniteYamlReadSide, shogunReadSide, workflowReadSide, kicklangReadSide]) {
      const ids = catalogOf(side.protocol).statuses.map((s) => s.id);
      for (const s of side.statuses) expect(ids, side.protocol).toContain(s.id);
      expect(statusDefinition("gone", side.protocol)).toMatchObject({ label: "Gone", state: "done", tone: "neutral" });
    }
  });

  it("gathers every word once, IGNITE v3's first and in its own order", () => {
    expect(new Set(ALL_STATUSES).size).toBe(ALL_STATUSES.length);
    expect(ALL_STATUSES.slice(0, 11)).toEqual(catalogOf("ignite").statuses.map((s) => s.id));
    for (const word of ["unread", "in_progress", "unacked", "unanswered", "gone"]) expect(ALL_STATUSES).toContain(word);
    expect(new Set(ALL_FOLDERS).size).toBe(ALL_FOLDERS.length);
    for (const word of ["queue", "processed", "dead_letter", "archive", "inbox", "tasks", "channel"]) expect(ALL_FOLDERS).toContain(word);
  });

  it("defines a word by its protocol first, and an unknown word plainly without throwing", () => {
    expect(statusDefinition("read", "shogun").help).toBe("In an inbox, read");
    expect(statusDefinition("sent").tone).toBe("teal");
    expect(statusDefinition("weird_word", "ignite")).toMatchObject({ id: "weird_word", label: "weird_word", tone: "neutral" });
  });

  it("names statuses a catalog's waiting, retry, working and dead-letter words point at, and the dead-letter area among its folders", () => {
    for (const c of CATALOGS) {
      const ids = c.statuses.map((s) => s.id);
      const pointed = [...(c.waiting ?? []), ...(c.retryWaits ?? []), ...(c.working ?? []), ...(c.deadLetterStatus === undefined ? [] : [c.deadLetterStatus])];
      for (const w of pointed) expect(ids, `${c.protocol} ${w}`).toContain(w);
      // A message is stuck while its agent holds it too long: the stuck status is one it works in.
      if (c.fileLife) expect(c.working, c.protocol).toContain(c.fileLife.stuck);
      if (c.deadLetterStatus !== undefined) expect(c.folders, c.protocol).toContain(DEAD_LETTER_FOLDER);
    }
  });

  it("gives AgentStats' named counts IGNITE v3's overview columns", () => {
    expect([...NAMED_COUNTS]).toEqual(catalogOf("ignite").columns);
  });

  it("orders counts by the catalogs, an unknown word last", () => {
    expect(inStatusOrder(["zzz", "dead", "queued", "unread", "dead"])).toEqual(["queued", "dead", "unread", "zzz"]);
  });
});
