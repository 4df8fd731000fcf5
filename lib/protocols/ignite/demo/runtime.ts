// `.ignite/runtime.yaml`, which `ignite start` writes: the demo writes one and reads its session name.
import fs from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { isoWithOffset } from "../build";

export function runtimeYaml(session: string, workspace: string, startedAt: Date, ignitians: number): string {
  return [
    "# IGNITE ランタイム情報（自動生成）",
    "# このファイルはシステム起動時に自動的に更新されます",
    "",
    "system:",
    `  started_at: "${isoWithOffset(startedAt)}"`,
    '  agent_mode: "full"',
    `  session_name: "${session}"`,
    `  workspace_dir: ${JSON.stringify(workspace)}`,
    '  startup_status: "complete"',
    "  headless: true",
    "",
    "ignitians:",
    `  count: ${ignitians}`,
    `  ids: [${Array.from({ length: ignitians }, (_, i) => i + 1).join(", ")}]`,
    "",
  ].join("\n");
}

/** The session named in runtime.yaml, or "ignite-demo" when there is none. */
export function readSessionName(igniteDir: string): string {
  try {
    const runtime: unknown = parseYaml(fs.readFileSync(path.join(igniteDir, "runtime.yaml"), "utf8"));
    const name = (runtime as { system?: { session_name?: unknown } } | null)?.system?.session_name;
    if (typeof name === "string" && name) return name;
  } catch {
    // Missing or unreadable: fall through to the default.
  }
  return "ignite-demo";
}
