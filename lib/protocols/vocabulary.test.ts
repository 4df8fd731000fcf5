import { describe, expect, it } from "vitest";
import type { ProtocolCatalog } from "./catalog-types";
import { vocabularyOf } from "./vocabulary";

const catalog = (protocol: ProtocolCatalog["protocol"], statuses: [string, string][], folders: string[], more: Partial<ProtocolCatalog> = {}): ProtocolCatalog => ({
  protocol, label: protocol, folders, workspace: `${folders[0] ?? ""}/`, columns: [], overdue: null, oldest: "Oldest", headers: false, hops: [], ...more,
  statuses: statuses.map(([id, tone]) => ({ id, label: id.toUpperCase(), state: "open", tone: tone as "sky", help: `${protocol} ${id}` })),
});

describe("vocabularyOf", () => {
  // Any list of catalogs, in the order given: the lookups know no protocol of their own.
  const words = vocabularyOf([
    catalog("shogun", [["unread", "sky"], ["done", "emerald"]], ["inbox", "tasks"]),
    catalog("workflow", [["done", "teal"], ["unacked", "amber"]], ["channel", "inbox"]),
  ]);

  it("gathers each word once, in the catalogs' order", () => {
    expect(words.statuses).toEqual(["unread", "done", "unacked"]);
    expect(words.folders).toEqual(["inbox", "tasks", "channel"]);
  });

  it("gathers where dead letters lie, once, from the catalogs that keep them", () => {
    expect(words.deadLetterPlaces).toEqual([]);
    const lettered = vocabularyOf([
      catalog("ignite", [["dead", "red"]], ["queue"], { deadLetterStatus: "dead", deadLetterPlace: "queue/dead_letter/" }),
      catalog("ignite-yaml", [["dead", "red"]], ["queue"], { deadLetterStatus: "dead", deadLetterPlace: "queue/dead_letter/" }),
      catalog("shogun", [["failed", "red"]], ["inbox"]),
    ]);
    expect(lettered.deadLetterPlaces).toEqual(["queue/dead_letter/"]);
  });

  it("defines a word by its protocol first, then by the first catalog that has it, else plainly", () => {
    expect(words.statusDefinition("done", "workflow").tone).toBe("teal");
    expect(words.statusDefinition("done").tone).toBe("emerald");
    expect(words.statusDefinition("done", "kicklang").tone).toBe("emerald");
    expect(words.statusDefinition("odd")).toMatchObject({ id: "odd", label: "odd", state: "open", tone: "neutral" });
  });

  it("orders words as the catalogs do, unknown ones last and alphabetically", () => {
    expect(words.inStatusOrder(["b", "unacked", "a", "unread", "unacked"])).toEqual(["unread", "unacked", "a", "b"]);
  });

  it("throws for a protocol it has no catalog of", () => {
    expect(words.catalogOf("workflow").folders).toEqual(["channel", "inbox"]);
    expect(() => words.catalogOf("ignite")).toThrow(/no catalog for protocol "ignite"/);
  });

  it("tells the dead-letter and retry statuses, by protocol or of any", () => {
    const dying = vocabularyOf([
      { ...catalog("ignite", [["retrying", "amber"], ["dead", "red"]], ["queue"]), deadLetterStatus: "dead", retryWaits: ["retrying"] },
      { ...catalog("shogun", [["failed", "red"], ["later", "amber"]], ["inbox"]), deadLetterStatus: "failed", retryWaits: ["later"] },
      catalog("workflow", [["dead", "red"], ["retrying", "amber"]], ["channel"]),
    ]);
    expect(dying.deadLetterStatuses).toEqual(["dead", "failed"]);
    expect(dying.isDeadLetterStatus("dead", "ignite")).toBe(true);
    expect(dying.isDeadLetterStatus("dead", "shogun")).toBe(false);
    expect(dying.isDeadLetterStatus("dead", "workflow")).toBe(false);
    expect(dying.isDeadLetterStatus("failed")).toBe(true);
    expect(dying.isDeadLetterStatus("retrying")).toBe(false);
    expect(dying.waitsForRetry("retrying", "ignite")).toBe(true);
    expect(dying.waitsForRetry("retrying", "workflow")).toBe(false);
    expect(dying.waitsForRetry("later", "shogun")).toBe(true);
    expect(dying.waitsForRetry("later")).toBe(true);
    expect(dying.waitsForRetry("dead")).toBe(false);
  });
});
