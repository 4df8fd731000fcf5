import "server-only";
// Binds the IGNITE adapter to one workspace root: finds the runtime directory, lists the queue
// and the discard archive without following links, and hands files to the pure parser.
import path from "node:path";
import { NAME_PATTERN } from "@/lib/model";
import { isReachableWithoutLinks, isRealDirectory, listNoFollow, listRealSubdirs } from "@/lib/protocols/fs-safe";
import type { FoundFile, ProtocolAdapter, SourceReader } from "@/lib/protocols/types";
import { describeIgniteFile, parseIgniteFile } from "./parse";
import { deadLetterFacts } from "./dead-letter-facts";
import { ARCHIVE_PARTS, DEAD_LETTER, placeIgnite } from "./paths";
import { nameTimeMs } from "./name-time";
import { igniteDeliveryWarnings } from "./delivery";
import { readIgniteHealth } from "./health";
import { igniteDeadLetterOriginal, igniteLifecycleStep, igniteReplacedPath } from "./lifecycle";
import { listIgniteLogs, readIgniteLog } from "./logs";
import { readIgniteSettings } from "./settings";

/** Levels below queue/ and archive/mailroom/ where a message can sit (see placeIgnite). */
const QUEUE_DEPTH = 3;
const ARCHIVE_DEPTH = QUEUE_DEPTH + 1;

export interface IgniteLayout {
  /** `<root>/.ignite` when it is a real directory, else the root itself. */
  runtimeDir: string;
  queueDir: string;
  archiveDir: string;
  /** The runtime directory relative to the root, "" or ".ignite/". */
  runtimePrefix: string;
}

export async function findIgniteLayout(root: string): Promise<IgniteLayout | null> {
  const dotIgnite = path.join(root, ".ignite");
  const runtimeDir = (await isRealDirectory(dotIgnite)) ? dotIgnite : root;
  const queueDir = path.join(runtimeDir, "queue");
  if (!(await isReachableWithoutLinks(root, queueDir))) return null;
  return {
    runtimeDir,
    queueDir,
    archiveDir: path.join(runtimeDir, ...ARCHIVE_PARTS),
    runtimePrefix: runtimeDir === root ? "" : ".ignite/",
  };
}

const DOT = 46;

/** Which of the two message endings are messages in `folder` (root-relative, not the root). */
const endingsIn = (place: SourceReader["place"], folder: string) => ({
  mime: place(`${folder}/m.mime`) !== null,
  yaml: place(`${folder}/m.yaml`) !== null,
});

/** acceptByFolder's answer for the names directly in one folder, asked once for the folder (see ListOptions.acceptIn). */
export function acceptNamesIn(place: SourceReader["place"]): (relDir: string) => (name: string) => boolean {
  return (relDir) => {
    const exactly = (name: string) => place(relDir === "" ? name : `${relDir}/${name}`) !== null;
    if (relDir === "") return exactly;
    const accepts = endingsIn(place, relDir);
    return (name) => {
      const ending = name.endsWith(".mime") ? "mime" : name.endsWith(".yaml") ? "yaml" : null;
      return ending === null || name.charCodeAt(0) === DOT ? exactly(name) : accepts[ending];
    };
  };
}

/**
 * `place(relPath) !== null`, asked once per folder and kind of name: whether a file is a message
 * depends only on its folder, a leading dot and its ending (see placeIgnite). Placing each path
 * whole was a third of a first scan's listing (90 ms of 260 per 100,000 files).
 */
export function acceptByFolder(place: SourceReader["place"]): (relPath: string) => boolean {
  const folders = new Map<string, { mime: boolean; yaml: boolean }>();
  // A listing asks folder by folder: the last folder's answer is kept, and no path is cut
  // (a million names sliced twice each cost 0.3 s of a listing's 1.9 s).
  let lastFolder: string | null = null;
  let last = { mime: false, yaml: false };
  return (relPath) => {
    const slash = relPath.lastIndexOf("/");
    // Neither ending holds a "/", so the path ends with it when its name does.
    const ending = relPath.endsWith(".mime") ? "mime" : relPath.endsWith(".yaml") ? "yaml" : null;
    if (ending === null || relPath.charCodeAt(slash + 1) === DOT || slash < 0) return place(relPath) !== null;
    if (lastFolder === null || slash !== lastFolder.length || !relPath.startsWith(lastFolder)) {
      const folder = relPath.slice(0, slash);
      let accepts = folders.get(folder);
      if (!accepts) {
        accepts = endingsIn(place, folder);
        folders.set(folder, accepts);
      }
      [lastFolder, last] = [folder, accepts];
    }
    return last[ending];
  };
}

export async function openIgnite(root: string): Promise<SourceReader | null> {
  const absRoot = path.resolve(root);
  const layout = await findIgniteLayout(absRoot);
  if (!layout) return null;
  const place: SourceReader["place"] = (relPath) => placeIgnite(layout.runtimePrefix, relPath);

  return {
    protocol: "ignite",
    root: absRoot,
    watchDirs: [layout.queueDir, layout.archiveDir],
    place,
    nameTimeMs,
    // Any folder under queue/ is an agent (docs/protocols/ignite-mime.md), except the dead-letter queue.
    async agents(): Promise<string[]> {
      const names = await listRealSubdirs(layout.queueDir);
      return names.filter((n) => n !== DEAD_LETTER && NAME_PATTERN.test(n)).sort();
    },
    async list(opts = {}): Promise<FoundFile[]> {
      const accept = acceptByFolder(place);
      const acceptIn = acceptNamesIn(place);
      const [queued, archived] = await Promise.all([
        listNoFollow(absRoot, layout.queueDir, { ...opts, maxDepth: QUEUE_DEPTH, accept, acceptIn }),
        listNoFollow(absRoot, layout.archiveDir, { ...opts, maxDepth: ARCHIVE_DEPTH, accept, acceptIn }),
      ]);
      return [...queued, ...archived];
    },
    parse: parseIgniteFile,
    describe: describeIgniteFile,
    async processingTimeoutMs() {
      const { taskTimeoutSec } = await readIgniteSettings(layout.runtimeDir);
      return taskTimeoutSec === null ? null : taskTimeoutSec * 1000;
    },
    health: (nowMs) => readIgniteHealth(layout.runtimeDir, nowMs),
    deliveryWarnings: (agents) => igniteDeliveryWarnings(layout.runtimeDir, agents),
    deadLetterOriginal: (letter, dl) => igniteDeadLetterOriginal(letter, dl),
    replacedPath: igniteReplacedPath,
    lifecycleStep: igniteLifecycleStep,
    logs: () => listIgniteLogs(layout.runtimeDir),
    readLog: (name, from, maxBytes) => readIgniteLog(layout.runtimeDir, name, from, maxBytes),
  };
}

export const igniteAdapter: ProtocolAdapter = { protocol: "ignite", open: openIgnite, describe: describeIgniteFile, deadLetterFacts };
