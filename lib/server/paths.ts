import "server-only";
import fs from "node:fs/promises";
import path from "node:path";

/**
 * Resolve a root-relative path for reading, refusing anything that leaves the root:
 * `..`, absolute paths, and symlinks (at any depth) that point outside. null when refused or missing.
 */
export async function resolveInsideRoot(root: string, relPath: string): Promise<string | null> {
  if (relPath === "" || path.isAbsolute(relPath) || relPath.includes("\0")) return null;
  const parts = relPath.split(/[\\/]/);
  if (parts.some((p) => p === ".." || p === "")) return null;
  // The file itself must be a plain file: a symlink in a queue is listed, never read.
  const own = await fs.lstat(path.join(root, ...parts)).catch(() => null);
  if (!own?.isFile()) return null;
  const realRoot = await fs.realpath(root).catch(() => null);
  if (!realRoot) return null;
  const target = await fs.realpath(path.join(root, ...parts)).catch(() => null);
  if (!target) return null;
  const rel = path.relative(realRoot, target);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return null;
  return target;
}
