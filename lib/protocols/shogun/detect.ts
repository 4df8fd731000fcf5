import "server-only";
// Claims a root that holds a multi-agent-shogun tree: `queue/inbox/<agent>.yaml` files with a
// `messages:` list, and/or `queue/shogun_to_karo.yaml`. `queue/inbox` is the one link followed
// (DESIGN "Safety rules"): upstream often makes it a symlink to ~/.local/share/…/inbox.
import { lstat, open, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { isReachableWithoutLinks } from "@/lib/protocols/fs-safe";
import type { Layout } from "@/lib/protocols/layout";
import { holdsFile } from "@/lib/protocols/probe";
import { DASHBOARD } from "./paths";

export interface ShogunLayout extends Layout {
  protocol: "shogun";
  queueDir: string;
  /** The inbox folder's real location (outside the root when `queue/inbox` is a link), or null. */
  inboxDir: string | null;
  inboxLinked: boolean;
  /** `dashboard.md` when it is a regular file at the root. */
  dashboard: string | null;
}

/** Inbox files looked at before giving up: a real inbox folder holds about ten. */
const MAX_PROBED = 64;
/** `messages:` is the file's first key (keys are sorted, and it is the only one). */
const HEAD_BYTES = 4096;

async function isRegularFile(p: string): Promise<boolean> {
  const s = await lstat(p).catch(() => null);
  return s !== null && s.isFile();
}

async function headOf(file: string): Promise<string> {
  const handle = await open(file, "r").catch(() => null);
  if (!handle) return "";
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buf, 0, HEAD_BYTES, 0);
    return buf.toString("utf8", 0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The inbox folder, following `queue/inbox` only when it is itself the link. */
export async function inboxOf(queueDir: string): Promise<{ dir: string; linked: boolean } | null> {
  const link = path.join(queueDir, "inbox");
  const own = await lstat(link).catch(() => null);
  if (!own) return null;
  if (own.isDirectory()) return { dir: link, linked: false };
  if (!own.isSymbolicLink()) return null;
  const target = await stat(link).catch(() => null);
  if (!target?.isDirectory()) return null;
  return { dir: await realpath(link), linked: true };
}

function holdsInboxFile(dir: string): Promise<boolean> {
  // A linked file inside the inbox is never read (holdsFile skips links).
  return holdsFile(dir, async (name) => name.endsWith(".yaml") && /^messages:/m.test(await headOf(path.join(dir, name))), MAX_PROBED);
}

export async function detect(root: string): Promise<ShogunLayout | null> {
  const absRoot = path.resolve(root);
  const queueDir = path.join(absRoot, "queue");
  if (!(await isReachableWithoutLinks(absRoot, queueDir))) return null;
  const inbox = await inboxOf(queueDir);
  const hasInbox = inbox !== null && (await holdsInboxFile(inbox.dir));
  if (!hasInbox && !(await isRegularFile(path.join(queueDir, "shogun_to_karo.yaml")))) return null;
  const dashboard = path.join(absRoot, DASHBOARD);
  return {
    protocol: "shogun",
    root: absRoot,
    queueDir,
    inboxDir: inbox?.dir ?? null,
    inboxLinked: inbox?.linked ?? false,
    dashboard: (await isRegularFile(dashboard)) ? dashboard : null,
    // A linked inbox lies outside queue/: watch it where it is (writers rename over its files).
    watchDirs: inbox?.linked ? [queueDir, inbox.dir] : [queueDir],
    links: inbox?.linked ? [{ relPath: "queue/inbox", dir: inbox.dir }] : [],
  };
}
