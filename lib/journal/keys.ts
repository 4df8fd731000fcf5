import { createHash } from "node:crypto";

/** A readable, URL-safe, stable key: the file's name at first sight plus a short hash. */
export function makeKey(source: string, relPath: string, messageId: string | null, attempt: number): string {
  const base = relPath.split("/").pop() ?? "message";
  const stem = base.replace(/\.[A-Za-z0-9]+$/, "").replace(/[^A-Za-z0-9_-]+/g, "_").slice(0, 64) || "message";
  const hash = createHash("sha256")
    .update(`${source}\0${relPath}\0${messageId ?? ""}\0${attempt}`)
    .digest("hex")
    .slice(0, 8);
  return `${stem}-${hash}`;
}
