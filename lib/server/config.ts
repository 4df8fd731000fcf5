import "server-only";
import { createHash } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { z } from "zod";

const HOST_NAME = /^[a-z0-9]([a-z0-9-]{0,62})?(\.[a-z0-9]([a-z0-9-]{0,62})?)*$/;

// Every setting comes from the environment (README "Settings"); this is the only reader of it.
const flag = z
  .enum(["", "0", "1", "true", "false"], { message: 'use "1" (on) or "0" (off)' })
  .default("")
  .transform((v) => v === "1" || v === "true");

const envSchema = z.object({
  MAILROOM_ROOT: z.string().default(""),
  MAILROOM_DATA: z.string().default(""),
  MAILROOM_TOKEN: z.string().default(""),
  HOSTNAME: z.string().default(""),
  MAILROOM_ALLOWED_HOSTS: z
    .string()
    .default("")
    .transform((v) => v.split(",").map((h) => h.trim().toLowerCase().replace(/\.$/, "")).filter(Boolean))
    .refine((hosts) => hosts.every((h) => HOST_NAME.test(h)), 'list host names separated by commas, without a scheme or port (e.g. "mailroom.example.com,box.lan")'),
  MAILROOM_READONLY: flag,
  MAILROOM_POLL_MS: z.coerce
    .number({ message: "must be a number of milliseconds" })
    .int("must be a whole number of milliseconds")
    .min(250, "must be at least 250 ms")
    .max(600_000, "must be at most 600000 ms")
    .default(2000),
  MAILROOM_STUCK_AFTER: z.coerce
    .number({ message: "must be a number of seconds" })
    .int("must be a whole number of seconds")
    .min(1, "must be at least 1 s")
    .default(300),
  MAILROOM_ACK_DUE_MS: z.coerce
    .number({ message: "must be a number of milliseconds" })
    .int("must be a whole number of milliseconds")
    .min(100, "must be at least 100 ms")
    .default(5000),
  MAILROOM_RETAIN_DAYS: z.coerce
    .number({ message: "must be a number of days" })
    .min(0, "must be 0 (keep forever) or more")
    .default(0),
  MAILROOM_RETAIN_COUNT: z.coerce
    .number({ message: "must be a whole number" })
    .int("must be a whole number")
    .min(0, "must be 0 (no limit) or more")
    .default(0),
  MAILROOM_RESCAN_MS: z.coerce
    .number({ message: "must be a number of milliseconds" })
    .int("must be a whole number of milliseconds")
    .min(500, "must be at least 500 ms")
    .default(10_000),
});

export interface Config {
  /** Absolute workspace roots, in the order given. */
  roots: string[];
  dataDir: string;
  journalFile: string;
  token: string | null;
  readOnly: boolean;
  /** Host names answered besides IP addresses and loopback names: HOSTNAME and MAILROOM_ALLOWED_HOSTS. */
  allowedHosts: string[];
  pollMs: number;
  stuckAfterMs: number;
  /** MAILROOM_STUCK_AFTER was set: it overrides a workspace's own timeout (IGNITE: system.yaml). */
  stuckAfterSet: boolean;
  rescanMs: number;
  /** How long a message that asks for an acknowledgement (workflow) may wait for it before it counts as stuck. */
  ackDueMs: number;
  /** Completed messages whose files are gone are pruned after this long (0: never). */
  retainMs: number;
  /** At most this many completed, gone messages are kept (0: no limit). */
  retainCount: number;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

function defaultDataDir(env: Record<string, string | undefined>): string {
  const base = env.XDG_DATA_HOME || path.join(env.HOME || os.homedir(), ".local", "share");
  return path.join(base, "mailroom");
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** The names the server may be asked for: the one it was told to listen on (not a wildcard or an IP) and the list. */
function allowedHostsOf(hostname: string, listed: string[]): string[] {
  const own = hostname.trim().toLowerCase().replace(/\.$/, "");
  return HOST_NAME.test(own) ? [...new Set([own, ...listed])] : listed;
}

/** Parse settings from an environment; throws ConfigError naming the variable and the fix. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`);
    throw new ConfigError(`Invalid setting. ${lines.join("; ")}`);
  }
  const e = parsed.data;
  const roots = [...new Set(e.MAILROOM_ROOT.split(":").filter(Boolean).map((r) => path.resolve(/*turbopackIgnore: true*/ r)))];
  // Paths come from the environment at run time; the build must not trace them.
  const dataDir = path.resolve(/*turbopackIgnore: true*/ e.MAILROOM_DATA || defaultDataDir(env));
  for (const root of roots) {
    if (isInside(dataDir, root)) {
      throw new ConfigError(
        `MAILROOM_DATA (${dataDir}) is inside the workspace ${root}; the journal must live outside the tree it watches.`,
      );
    }
  }
  // One journal per set of workspaces, so pointing Mailroom elsewhere never mixes histories.
  const rootsId = createHash("sha256").update(roots.join("\0")).digest("hex").slice(0, 12);
  return {
    roots,
    dataDir,
    journalFile: path.join(dataDir, `journal-${rootsId}.sqlite`),
    token: e.MAILROOM_TOKEN || null,
    readOnly: e.MAILROOM_READONLY,
    allowedHosts: allowedHostsOf(e.HOSTNAME, e.MAILROOM_ALLOWED_HOSTS),
    pollMs: e.MAILROOM_POLL_MS,
    stuckAfterMs: e.MAILROOM_STUCK_AFTER * 1000,
    stuckAfterSet: (env.MAILROOM_STUCK_AFTER ?? "") !== "",
    rescanMs: e.MAILROOM_RESCAN_MS,
    ackDueMs: e.MAILROOM_ACK_DUE_MS,
    retainMs: e.MAILROOM_RETAIN_DAYS * 86_400_000,
    retainCount: e.MAILROOM_RETAIN_COUNT,
  };
}

let cached: { envKey: string; config: Config } | null = null;

/** The server's settings, read from process.env (re-read when it changes, e.g. in tests). */
export function getConfig(): Config {
  const env = process.env;
  const envKey = [
    env.MAILROOM_ROOT, env.MAILROOM_DATA, env.MAILROOM_TOKEN, env.MAILROOM_READONLY,
    env.MAILROOM_POLL_MS, env.MAILROOM_STUCK_AFTER, env.MAILROOM_RESCAN_MS, env.XDG_DATA_HOME,
    env.MAILROOM_RETAIN_DAYS, env.MAILROOM_RETAIN_COUNT, env.HOSTNAME, env.MAILROOM_ALLOWED_HOSTS, env.MAILROOM_ACK_DUE_MS,
  ].join("\u0000");
  if (cached?.envKey !== envKey) cached = { envKey, config: loadConfig(env) };
  return cached.config;
}
