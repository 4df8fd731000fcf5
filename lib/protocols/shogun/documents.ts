import "server-only";
// The status board the agents keep at the root (protocol doc "Other files"), offered as a
// document; looked for at each call, since agents may write it after the source was found.
import { lstat } from "node:fs/promises";
import path from "node:path";
import type { SourceDocument } from "@/lib/protocols/layout";
import type { ShogunLayout } from "./detect";
import { DASHBOARD } from "./paths";

export async function shogunDocuments(layout: ShogunLayout): Promise<SourceDocument[]> {
  const st = await lstat(path.join(layout.root, DASHBOARD)).catch(() => null);
  return st?.isFile() ? [{ name: DASHBOARD, relPath: DASHBOARD }] : [];
}
