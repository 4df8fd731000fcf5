import "server-only";
// Claims a root that holds an IGNITE v2 tree: `<root>/queue/` with at least one message under a
// v2 name. The name is the evidence: shogun's `queue/tasks/*.yaml` and a v3 queue's `.mime`
// files sit in the same shape of folders but never carry one.
import path from "node:path";
import { NAME_PATTERN } from "@/lib/model";
import { isReachableWithoutLinks, isRealDirectory, listRealSubdirs } from "@/lib/protocols/fs-safe";
import type { Layout } from "@/lib/protocols/layout";
import { holdsFile } from "@/lib/protocols/probe";
import { DEAD_LETTER, V2_MESSAGE_NAME } from "./paths";

export interface IgniteYamlLayout extends Layout {
  protocol: "ignite-yaml";
  queueDir: string;
  /** Every agent with a queue folder, even an empty one. */
  agents: string[];
}

/** True when `dir` directly holds a file with a v2 message name; stops at the first. */
function holdsV2Message(dir: string): Promise<boolean> {
  return holdsFile(dir, (name) => V2_MESSAGE_NAME.test(name));
}

export async function detect(root: string): Promise<IgniteYamlLayout | null> {
  const absRoot = path.resolve(root);
  const queueDir = path.join(absRoot, "queue");
  if (!(await isReachableWithoutLinks(absRoot, queueDir))) return null;
  const agents = (await listRealSubdirs(queueDir)).filter((n) => NAME_PATTERN.test(n)).sort();
  let found = false;
  for (const name of agents) {
    const dir = path.join(queueDir, name);
    const processed = path.join(dir, "processed");
    if ((await holdsV2Message(dir)) || (name !== DEAD_LETTER && (await isRealDirectory(processed)) && (await holdsV2Message(processed)))) {
      found = true;
      break;
    }
  }
  if (!found) return null;
  return {
    protocol: "ignite-yaml",
    root: absRoot,
    queueDir,
    watchDirs: [queueDir, path.join(absRoot, "archive", "mailroom")],
    agents: agents.filter((n) => n !== DEAD_LETTER),
  };
}
