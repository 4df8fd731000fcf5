import "server-only";
// Claims a root that holds KickLang channels: `.kicklang/channels/` as real folders.
import path from "node:path";
import { isReachableWithoutLinks } from "@/lib/protocols/fs-safe";
import type { Layout } from "@/lib/protocols/layout";
import { CHANNELS_DIR } from "./channels";

export interface KicklangLayout extends Layout {
  protocol: "kicklang";
  channelsDir: string;
}

export async function detect(root: string): Promise<KicklangLayout | null> {
  const absRoot = path.resolve(root);
  const channelsDir = path.join(absRoot, ...CHANNELS_DIR.split("/"));
  if (!(await isReachableWithoutLinks(absRoot, channelsDir))) return null;
  return { protocol: "kicklang", root: absRoot, channelsDir, watchDirs: [channelsDir] };
}
