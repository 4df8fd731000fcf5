import "server-only";
// Detection evidence without reading whole folders: stop at the first regular file that tells.
import { opendir } from "node:fs/promises";

/**
 * What `judge` makes of the first regular file directly in `dir` (never a link: directory entry
 * types do not follow them) it has an answer for, or null; looks at no more than `maxTried` files.
 */
export async function firstVerdict<T>(dir: string, judge: (name: string) => T | null | Promise<T | null>, maxTried = Infinity): Promise<T | null> {
  const handle = await opendir(dir).catch(() => null);
  if (!handle) return null;
  let tried = 0;
  try {
    for await (const entry of handle) {
      if (!entry.isFile()) continue;
      const verdict = await judge(entry.name);
      if (verdict !== null) return verdict;
      if (++tried >= maxTried) break;
    }
  } catch {
    // unreadable mid-way: no evidence
  }
  return null;
}

/** True when `dir` directly holds a regular file for which `fits(name)` holds. */
export async function holdsFile(dir: string, fits: (name: string) => boolean | Promise<boolean>, maxTried = Infinity): Promise<boolean> {
  return (await firstVerdict(dir, async (name) => ((await fits(name)) ? true : null), maxTried)) === true;
}
