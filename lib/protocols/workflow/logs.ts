import "server-only";
// Each workflow's three logs (`<workflow>/logs/{events,errors,actions}.jsonl`), named
// `<workflow-id>.<file>`: one path part, so a name travels in a URL segment as it is.
import { lstat } from "node:fs/promises";
import path from "node:path";
import { readLogSlice } from "@/lib/protocols/log-slice";
import type { LogFile, LogSlice } from "@/lib/protocols/types";
import { detect, type WorkflowLayout } from "./detect";
import { WORKFLOW_DIR } from "./paths";

const LOG_FILES = ["events.jsonl", "errors.jsonl", "actions.jsonl"] as const;

/** The log a name stands for, or null when it names none (any other file, a path, `..`). */
function logPath(workflows: readonly string[], name: string): string | null {
  const file = LOG_FILES.find((f) => name.endsWith(`.${f}`));
  const workflowId = file ? name.slice(0, -(file.length + 1)) : null;
  // Workflow ids are checked names (NAME_PATTERN) that detection found as folders.
  return file && workflowId !== null && workflows.includes(workflowId) ? `${WORKFLOW_DIR}/${workflowId}/logs/${file}` : null;
}

/** Workflows as they are now: a run started after the source was found has logs too. */
async function workflowsNow(layout: WorkflowLayout): Promise<string[]> {
  return (await detect(layout.root))?.workflows ?? [];
}

export async function listWorkflowLogs(layout: WorkflowLayout): Promise<LogFile[]> {
  const out: LogFile[] = [];
  for (const workflowId of await workflowsNow(layout)) {
    for (const file of LOG_FILES) {
      const st = await lstat(path.join(layout.root, WORKFLOW_DIR, workflowId, "logs", file)).catch(() => null);
      if (st?.isFile()) out.push({ name: `${workflowId}.${file}`, size: st.size, mtimeMs: st.mtimeMs });
    }
  }
  return out;
}

export async function readWorkflowLog(layout: WorkflowLayout, name: string, from: number, maxBytes: number): Promise<LogSlice | null> {
  const relPath = logPath(await workflowsNow(layout), name);
  return relPath === null ? null : readLogSlice(layout.root, relPath, from, maxBytes);
}
