import "server-only";
// The IGNITE system's own settings Mailroom follows: `<runtime dir>/system.yaml` (the workspace's
// IGNITE_CONFIG_DIR, as `ignite init` writes it). Read small, without following links, and never
// trusted beyond a plain number.
import fs from "node:fs/promises";
import path from "node:path";
import { parseDocument } from "yaml";

/** A settings file larger than this is not a settings file (upstream's is 3 KiB). */
const MAX_SETTINGS_BYTES = 256 * 1024;

async function readSmallFile(file: string): Promise<string | null> {
  const st = await fs.lstat(file).catch(() => null);
  if (!st?.isFile() || st.size > MAX_SETTINGS_BYTES) return null;
  return fs.readFile(file, "utf8").catch(() => null);
}

/** A positive whole number of seconds, or null. */
function seconds(value: unknown): number | null {
  const n = typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof n === "number" && Number.isInteger(n) && n > 0 && n <= 86_400 * 365 ? n : null;
}

export interface IgniteSettings {
  /** `defaults.task_timeout`: seconds in processed/ before the monitor's timeout retry. */
  taskTimeoutSec: number | null;
  /** `queue.poll_interval`: seconds between the monitor's polls. */
  pollIntervalSec: number | null;
}

export async function readIgniteSettings(runtimeDir: string): Promise<IgniteSettings> {
  const text = await readSmallFile(path.join(runtimeDir, "system.yaml"));
  const none = { taskTimeoutSec: null, pollIntervalSec: null };
  if (text === null) return none;
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return none;
  const at = (...keys: string[]): unknown => doc.getIn(keys);
  return { taskTimeoutSec: seconds(at("defaults", "task_timeout")), pollIntervalSec: seconds(at("queue", "poll_interval")) };
}
