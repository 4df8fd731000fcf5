// A root nothing claims is reported with what each protocol looks for, from the catalogs.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOGS } from "@/lib/protocols";
import { discoverSources } from "./sources";

describe("discoverSources on a folder no protocol claims", () => {
  it("names what every protocol looks for, so the user can fix the root", async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-empty-"));
    try {
      fs.mkdirSync(path.join(empty, "notes"));
      const sources = await discoverSources([empty]);
      expect(sources).toHaveLength(1);
      expect(sources[0]?.reader).toBeNull();
      expect(sources[0]?.error).toContain(`no message queue found in ${empty}`);
      for (const c of CATALOGS) expect(sources[0]?.error).toContain(`${c.label}'s ${c.workspace}`);
      expect(sources[0]?.error).toContain("Is MAILROOM_ROOT the workspace folder?");
    } finally {
      fs.rmSync(empty, { recursive: true });
    }
  });
});
