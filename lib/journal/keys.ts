import * as crypto from "node:crypto";

/** One-shot hashing (Node ≥ 20.12) costs half of createHash(), and a first scan makes a key per file; Next runs from 20.9. */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === "function"
    ? (text) => crypto.hash("sha256", text, "hex")
    : (text) => crypto.createHash("sha256").update(text).digest("hex");

/** A readable, URL-safe, stable key: the file's name at first sight plus a short hash. */
export function makeKey(source: string, relPath: string, messageId: string | null, attempt: number): string {
  const base = relPath.slice(relPath.lastIndexOf("/") + 1);
  const stem = base.replace(/\.[A-Za-z0-9]+$/, "").replace(/[^A-Za-z0-9_-]+/g, "_").slice(0, 64) || "message";
  return `${stem}-${sha256Hex(`${source}\0${relPath}\0${messageId ?? ""}\0${attempt}`).slice(0, 8)}`;
}
