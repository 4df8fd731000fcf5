import "server-only";
// Claims a root that holds multi-agent-workflow runs: `.claude/workflow/<id>/channel/` as real
// folders (no link followed on the way).
import path from "node:path";
import { NAME_PATTERN } from "@/lib/model";
import { isReachableWithoutLinks, isRealDirectory, listRealSubdirs } from "@/lib/protocols/fs-safe";
import type { Layout } from "@/lib/protocols/layout";
import { WORKFLOW_DIR } from "./paths";

export interface WorkflowLayout extends Layout {
  protocol: "workflow";
  workflowsDir: string;
  /** Workflow ids with a channel folder. */
  workflows: string[];
}

export async function detect(root: string): Promise<WorkflowLayout | null> {
  const absRoot = path.resolve(root);
  const workflowsDir = path.join(absRoot, ...WORKFLOW_DIR.split("/"));
  if (!(await isReachableWithoutLinks(absRoot, workflowsDir))) return null;
  const workflows: string[] = [];
  for (const id of (await listRealSubdirs(workflowsDir)).sort()) {
    if (NAME_PATTERN.test(id) && (await isRealDirectory(path.join(workflowsDir, id, "channel")))) workflows.push(id);
  }
  if (workflows.length === 0) return null;
  return { protocol: "workflow", root: absRoot, workflowsDir, workflows, watchDirs: [workflowsDir] };
}
