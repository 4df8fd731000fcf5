import "server-only";
// Detection evidence without reading whole folders: stop at the first regular file that fits.
import { opendir } from "node:fs/promises";

/**
 * True when `dir` directly holds a regular file (never a link: directory entry types do not
 * follow them) for which `fits(name)` holds; looks at no more than `maxTried` candidates.
 */
export async function holdsFile(dir: string, fits: (name: string) => boolean | Promise<boolean>, maxTried = Infinity): Promise<boolean> {
  const handle = await opendir(dir).catch(() => null);
  if (!handle) return false;
  let tried = 0;
  try {
    for await (const entry of handle) {
      if (!entry.isFile()) continue;
      if (await fits(entry.name)) return true;
      if (++tried >= maxTried) break;
    }
  } catch {
    // unreadable mid-way: no evidence
  }
  return false;
}
