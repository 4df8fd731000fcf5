import { describe, expect, it } from "vitest";
import { catalogOf } from "@/lib/protocols/catalog";
import { FILE_LIFE } from "./file-life";
import { MIGRATIONS } from "./schema";

describe("the journal's file lifecycle", () => {
  it("is IGNITE v3's, whose files are its messages", () => {
    expect(FILE_LIFE).toEqual({ ...catalogOf("ignite").fileLife, held: catalogOf("ignite").deadLetterStatus });
  });

  it("names the statuses the frozen migrations index: the stuck sweep's and retention's", () => {
    // The writer's SQL must say them word for word for SQLite to use these partial indexes.
    expect(MIGRATIONS.join("\n")).toContain(`messages_processing_unstuck ON messages (mtime_ms) WHERE status = '${FILE_LIFE.stuck}'`);
    expect(MIGRATIONS.join("\n")).toContain(`messages_prunable ON messages (updated_ms, key) WHERE status = '${FILE_LIFE.deleted}'`);
  });
});
