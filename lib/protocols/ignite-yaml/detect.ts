import "server-only";
// Claims a root that holds an IGNITE v2 tree: `<root>/queue/` with a message under a v2 name in
// some queue folder, and no `.mime` message in any. The name is the evidence: shogun's
// `queue/tasks/*.yaml` sit in the same shape of folders but never carry one, and a v3 queue
// (the runtime directory given as the root) may briefly hold a v2 file the monitor converts.
import path from "node:path";
import { NAME_PATTERN } from "@/lib/model";
import { isReachableWithoutLinks, isRealDirectory, listRealSubdirs } from "@/lib/protocols/fs-safe";
import type { Layout } from "@/lib/protocols/layout";
import { firstVerdict } from "@/lib/protocols/probe";
import { DEAD_LETTER, V2_MESSAGE_NAME } from "./paths";

export interface IgniteYamlLayout extends Layout {
  protocol: "ignite-yaml";
  queueDir: string;
  /** Every agent with a queue folder, even an empty one. */
  agents: string[];
}

type Verdict = "v2" | "v3";

/** The first message file in `dir` says which version the queue is. */
function versionOf(dir: string): Promise<Verdict | null> {
  return firstVerdict<Verdict>(dir, (name) => (name.endsWith(".mime") ? "v3" : V2_MESSAGE_NAME.test(name) ? "v2" : null));
}

export async function detect(root: string): Promise<IgniteYamlLayout | null> {
  const absRoot = path.resolve(root);
  const queueDir = path.join(absRoot, "queue");
  if (!(await isReachableWithoutLinks(absRoot, queueDir))) return null;
  const agents = (await listRealSubdirs(queueDir)).filter((n) => NAME_PATTERN.test(n)).sort();
  const verdicts = new Set<Verdict | null>();
  for (const name of agents) {
    const dir = path.join(queueDir, name);
    const processed = path.join(dir, "processed");
    verdicts.add(await versionOf(dir));
    if (name !== DEAD_LETTER && (await isRealDirectory(processed))) verdicts.add(await versionOf(processed));
    if (verdicts.has("v3")) return null;
  }
  if (!verdicts.has("v2")) return null;
  return {
    protocol: "ignite-yaml",
    root: absRoot,
    queueDir,
    watchDirs: [queueDir, path.join(absRoot, "archive", "mailroom")],
    agents: agents.filter((n) => n !== DEAD_LETTER),
  };
}
