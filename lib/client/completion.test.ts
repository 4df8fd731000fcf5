import { describe, expect, it } from "vitest";
import { applySuggestion, complete, type FacetValues } from "./completion";
import { VOCABULARY as WORDS } from "@/lib/protocols";

const facets: FacetValues = {
  agents: ["coordinator", "ignitian_1", "ignitian_2", "leader", "strategist"],
  types: ["task_assignment", "task_completed", "user_goal"],
  priorities: ["high", "normal"],
  threads: ["thr_readme_42", "thr_ci_7"],
  sources: ["app-ignite", "app-shogun", "docs-ignite"],
  protocols: ["ignite", "shogun"],
};
const now = Date.parse("2026-11-20T09:30:00Z");
const labels = (q: string, cursor = q.length) => complete(q, cursor, facets, WORDS, now).items.map((s) => s.label);

describe("complete: fields", () => {
  it("offers field names that start with the word", () => {
    expect(labels("ty")).toEqual(["type:"]);
    expect(labels("t")).toEqual(["to:", "type:", "thread:"]);
    expect(labels("re")).toEqual(["repo:", "retries>"]);
  });

  it("offers every field for an empty word, and none for a word no field starts with", () => {
    expect(labels("status:dead ")).toHaveLength(19);
    expect(labels("")).toContain("has:");
    expect(labels("README")).toEqual([]);
  });

  it("keeps a leading minus (negation) in what it inserts", () => {
    const c = complete("-sta", 4, facets, WORDS, now);
    expect(c.items[0]).toMatchObject({ label: "status:", insert: "-status:" });
  });

  it("offers no field name inside a word whose field is already typed, which taking one would overwrite", () => {
    expect(labels("-status:dead", 1)).toEqual([]);
    expect(labels("typ:task_assignment", 3)).toEqual([]);
    expect(labels("retries>2", 3)).toEqual([]);
    // Inside a bare word it still completes: the word becomes the field.
    expect(labels("fro", 2)).toEqual(["from:"]);
  });

  it("completes the word under the cursor, not the last one", () => {
    const c = complete("fr status:dead", 2, facets, WORDS, now);
    expect(c).toMatchObject({ from: 0, to: 2 });
    expect(c.items.map((s) => s.label)).toEqual(["from:"]);
  });
});

describe("complete: values", () => {
  it("offers agents for from:, to: and agent:", () => {
    expect(labels("from:")).toEqual(facets.agents);
    expect(labels("to:ign")).toEqual(["ignitian_1", "ignitian_2"]);
    expect(labels("agent:LEA")).toEqual(["leader"]);
  });

  it("offers the dead-letter queue for agent: only: it never sends or receives a message", () => {
    const withQueue = { ...facets, agents: [...facets.agents, "dead_letter"] };
    const offered = (q: string) => complete(q, q.length, withQueue, WORDS, now).items.map((s) => s.label);
    expect(offered("agent:dead")).toEqual(["dead_letter"]);
    expect(offered("from:dead")).toEqual([]);
    expect(offered("to:")).not.toContain("dead_letter");
  });

  it("offers types, priorities, statuses, folders, threads, is: and has: values", () => {
    expect(labels("type:task")).toEqual(["task_assignment", "task_completed"]);
    expect(labels("priority:")).toEqual(["high", "normal"]);
    expect(labels("status:de")).toEqual(["delivered", "dead", "discarded"]);
    expect(labels("folder:dead")).toEqual(["dead_letter"]);
    // Every protocol's words, not only IGNITE's.
    expect(labels("status:unan")).toEqual(["unanswered"]);
    expect(labels("folder:rep")).toEqual(["reports"]);
    expect(labels("thread:readme")).toEqual(["thr_readme_42"]);
    // A value typed in full comes first, so Tab keeps it rather than taking a longer one.
    const more = { ...facets, threads: ["thr_readme_42", "thr_readme_4"] };
    expect(complete("thread:thr_readme_4", 19, more, WORDS, now).items.map((s) => s.label)).toEqual(["thr_readme_4", "thr_readme_42"]);
    expect(labels("is:")).toEqual(["stuck", "duplicate", "dead", "gone"]);
    expect(labels("has:pro")).toEqual(["problem"]);
  });

  it("offers the protocols and sources the journal holds for protocol: and source:", () => {
    expect(labels("pro")).toEqual(["protocol:"]);
    expect(labels("protocol:")).toEqual(["ignite", "shogun"]);
    expect(complete("-protocol:sh", 12, facets, WORDS, now).items).toEqual([{ label: "shogun", insert: "-protocol:shogun", hint: "protocol" }]);
    expect(labels("source:app")).toEqual(["app-ignite", "app-shogun"]);
    expect(labels("source:ignite")).toEqual(["app-ignite", "docs-ignite"]);
  });

  it("ranks values that contain the word after those that start with it", () => {
    expect(labels("from:i")).toEqual(["ignitian_1", "ignitian_2", "coordinator", "strategist"]);
  });

  it("offers relative times and today's date for before: and after:", () => {
    expect(labels("after:")).toEqual(["-15m", "-1h", "-6h", "-1d", "-7d", "2026-11-20"]);
    expect(labels("before:2026")).toEqual(["2026-11-20"]);
  });

  it("offers nothing for a complete value, free-text fields, retries, or inside a phrase", () => {
    expect(labels("status:dead")).toEqual([]);
    expect(labels("mid:")).toEqual([]);
    expect(labels("retries>2")).toEqual([]);
    expect(labels('"a phrase ty')).toEqual([]);
  });

  it("completes a quoted value through its spaces, and replaces the whole quoted word", () => {
    const teams = { ...facets, agents: ["Ops Team", "Ops Tools", "leader"] };
    const offered = (q: string, cursor = q.length) => complete(q, cursor, teams, WORDS, now);
    expect(offered('from:"Ops').items.map((s) => s.label)).toEqual(["Ops Team", "Ops Tools"]);
    expect(offered('from:"Ops ').items.map((s) => s.label)).toEqual(["Ops Team", "Ops Tools"]);
    expect(offered('-to:"Ops Te').items[0]).toMatchObject({ label: "Ops Team", insert: '-to:"Ops Team"' });
    // The cursor inside a closed quote: the word runs to the closing quote, so taking a value replaces it all.
    expect(offered('from:"Ops T" type:x', 11)).toMatchObject({ from: 0, to: 12 });
    expect(offered('status:dead from:"Ops T', 23).from).toBe(12);
  });

  it("inserts the field with the value, negated when the word is", () => {
    const c = complete("-from:lea", 9, facets, WORDS, now);
    expect(c.items[0]).toEqual({ label: "leader", insert: "-from:leader", hint: "agent" });
  });
});

describe("applySuggestion", () => {
  it("leaves the cursor after a field's colon so its value can follow", () => {
    const q = "status:dead ty";
    const c = complete(q, q.length, facets, WORDS, now);
    expect(applySuggestion(q, c, c.items[0]!)).toEqual({ value: "status:dead type:", cursor: 17 });
  });

  it("adds a space after a value, and replaces the whole word around the cursor", () => {
    const q = "type:ta is:stuck";
    const c = complete(q, 7, facets, WORDS, now);
    const applied = applySuggestion(q, c, c.items[1]!);
    expect(applied).toEqual({ value: "type:task_completed is:stuck", cursor: 20 });
  });

  it("appends a trailing space at the end of the query", () => {
    const q = "from:lea";
    const c = complete(q, q.length, facets, WORDS, now);
    expect(applySuggestion(q, c, c.items[0]!)).toEqual({ value: "from:leader ", cursor: 12 });
  });
});
