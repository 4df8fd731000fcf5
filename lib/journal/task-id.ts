// A message's task id, read from its body at write time (so inferred threads group on an index).
// Pure. The SQL backfill in schema.ts (migration 3) reads the same way; keep the two in step.

/** Placeholders upstream writes when it does not know the task (escalations say "unknown"). */
const NOT_A_TASK = new Set(["", "unknown", "null", "~", "none", "n/a"]);

function clean(raw: string): string | null {
  const v = raw.trim().replace(/^(["'])(.*)\1$/, "$2").trim();
  return NOT_A_TASK.has(v.toLowerCase()) ? null : v.slice(0, 200);
}

/**
 * The top-level `task_id:` of a YAML body (a line starting at column 0; nested ones, like a
 * task list's items or a dead letter's embedded original, do not count), or the top-level
 * `task_id` / `taskId` of a JSON object body. null when there is none.
 */
export function taskIdOf(body: string): string | null {
  const text = body.trimStart();
  if (text.startsWith("{")) {
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === "object" && value !== null && !Array.isArray(value)) {
        const record = value as Record<string, unknown>;
        const id = record.task_id ?? record.taskId;
        return typeof id === "string" || typeof id === "number" ? clean(String(id)) : null;
      }
    } catch {
      // Not JSON after all: read it as YAML.
    }
  }
  const match = /(?:^|\n)task_id:([^\n]*)/.exec(body);
  return match ? clean((match[1] ?? "").replace(/\r$/, "")) : null;
}
