import "server-only";
import fs from "node:fs/promises";
import path from "node:path";
import { ApiError } from "@/lib/server/errors";
import { HeldDir, makeFolders, withHeldDir } from "./held-dir";
import { tempNameFor, undoNameFor } from "./temp-files";

// Every change Mailroom makes to a tree goes through here (docs/DESIGN.md "Safety rules"): new content is
// written to a dot-named temp file in the target folder (outside every watched pattern), fsynced,
// then hard-linked into place. link(2) is atomic and, unlike rename(2), refuses an existing
// target, so nothing is ever overwritten. A move is link, then the source renamed aside and removed
// if it is still the file moved (removeIfStill): a crash between leaves the message in both places
// (a duplicate Mailroom flags) or a `.undo-` dotfile beside it, never in neither. Every step names its
// files through the folder held open (held-dir.ts): a folder swapped for a link meanwhile is not followed.

export const NEW_FILE_MODE = 0o600;

function code(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

/** A dot-named temp file in the held folder (the target's), written and fsynced; returns its name. */
async function writeTemp(held: HeldDir, target: string, content: string | Buffer, mode: number): Promise<string> {
  const temp = path.basename(tempNameFor(target));
  const handle = await fs.open(held.at(temp), "wx", mode);
  try {
    // The umask may have taken bits off a mode kept from the file this one replaces.
    await handle.chmod(mode);
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return temp;
}

async function linkInto(from: string, target: string, what: string): Promise<void> {
  try {
    await fs.link(from, target);
  } catch (err) {
    if (code(err) === "EEXIST") throw new ApiError(409, "target_exists", `${what} already exists; nothing was changed`);
    if (code(err) === "ENOENT") throw new ApiError(409, "source_gone", `the file moved or vanished meanwhile; nothing was changed`);
    throw err;
  }
}

/** A file a change made, by inode: its undo removes that file only, never one that took its name since. */
export interface MadeFile {
  dev: number;
  ino: number;
}

/** Create a new file atomically (mode 0600); a 409 if it exists. Returns the file made, for an undo (takeBack). */
export async function createFile(target: string, content: string | Buffer, displayPath: string, mode = NEW_FILE_MODE): Promise<MadeFile> {
  return withHeldDir(path.dirname(target), displayPath, async (held) => {
    const temp = await writeTemp(held, target, content, mode);
    let made: MadeFile;
    try {
      await linkInto(held.at(temp), held.at(path.basename(target)), displayPath);
      // The temp file is ours whatever happens to the target's name meanwhile: same inode.
      const st = await fs.lstat(held.at(temp));
      made = { dev: st.dev, ino: st.ino };
    } finally {
      await fs.unlink(held.at(temp)).catch(() => undefined);
    }
    held.sync();
    return made;
  });
}

/**
 * Undo a file this change made at `target`, if it is still the one there. Moved aside first (a
 * rename takes whatever holds the name, atomically), removed only when it is ours, else put back:
 * IGNITE v2's monitor moves a message from processed/ to the very name a retry writes, and before
 * this check the undo of a retry that lost that race deleted the monitor's file, so the message was
 * in neither folder. Says what it found:
 * ours (taken back), theirs (put back) or gone (nothing there).
 */
export async function takeBack(target: string, made: MadeFile): Promise<"ours" | "theirs" | "gone"> {
  const name = path.basename(target);
  const found = await withHeldDir(path.dirname(target), name, (held) => removeIfStill(held, name, made));
  return found === "removed" ? "ours" : found === "kept" ? "theirs" : "gone";
}

/**
 * Replace `source` by `content` at `target` (which may be another folder, or the same path for
 * an in-place rewrite handled by the caller). The target must not exist; if the source vanished
 * meanwhile the new file is taken back and the result is a 409.
 */
export async function moveWithContent(source: string, target: string, content: string | Buffer, displayTarget: string, mode = NEW_FILE_MODE): Promise<void> {
  makeFolders(path.dirname(target), displayTarget);
  const from = HeldDir.open(path.dirname(source), path.basename(source));
  try {
    const was = await identityOf(from, source);
    const made = await createFile(target, content, displayTarget, mode);
    await removeSourceOrUndo(from, source, target, made, was);
  } finally {
    from.close();
  }
}

/** The file at `source` now (null: none), in its folder as held. */
async function identityOf(from: HeldDir, source: string): Promise<MadeFile | null> {
  const st = await fs.lstat(from.at(path.basename(source))).catch(() => null);
  return st && { dev: st.dev, ino: st.ino };
}

/** moveWithContent for the same file rewritten on its way (a dead letter marked or unmarked): it keeps the source's permission bits. */
export async function moveRewritten(source: string, target: string, content: string | Buffer, displayTarget: string): Promise<void> {
  const st = await fs.lstat(source).catch((err: unknown) => {
    if (code(err) === "ENOENT") throw new ApiError(409, "source_gone", "the file moved or vanished meanwhile; nothing was changed");
    throw err;
  });
  await moveWithContent(source, target, content, displayTarget, st.mode & 0o7777);
}

/**
 * The second step of a move, in the source's folder as held since before the first: the source,
 * `was`, is removed only if it is still the file at its name. Moved aside first (a rename takes
 * whatever holds the name, atomically), as takeBack does: IGNITE v2's monitor moves a message from
 * its queue to processed/ under the same name, and a retry from processed/ that lost that race
 * unlinked, by name, the monitor's copy of the message it had just written. A file not `was` goes
 * back. If someone else took the source first, undo ours so the message exists exactly once.
 */
async function removeSourceOrUndo(from: HeldDir, source: string, target: string, made: MadeFile, was: MadeFile | null): Promise<void> {
  if ((await removeIfStill(from, path.basename(source), was)) === "removed") return;
  const found = await takeBack(target, made);
  const taken = path.basename(target);
  throw new ApiError(409, "source_gone",
    found === "ours" ? "the file moved or vanished while this change ran; nothing was changed"
    : found === "theirs" ? `someone else moved the file to ${taken} while this change ran; it is there, and nothing else was changed`
    : `the file moved or vanished while this change ran, and the copy written as ${taken} was taken meanwhile (by its agent?): look at both`);
}

/**
 * Remove `name` if it is still the file `was` ("removed"). Moved aside first (a rename takes
 * whatever holds the name, atomically), then removed if it is `was`, else put back ("kept"); "gone": nothing there.
 */
async function removeIfStill(held: HeldDir, name: string, was: MadeFile | null): Promise<"removed" | "kept" | "gone"> {
  const aside = path.basename(undoNameFor(name));
  try {
    await fs.rename(held.at(name), held.at(aside));
  } catch (err) {
    if (code(err) === "ENOENT") return "gone";
    throw err;
  }
  const st = await fs.lstat(held.at(aside));
  if (was && st.dev === was.dev && st.ino === was.ino) {
    await fs.unlink(held.at(aside));
    held.sync();
    return "removed";
  }
  try {
    await fs.link(held.at(aside), held.at(name));
  } catch (err) {
    // A third file took the name in those microseconds: the one moved aside stays, named, not lost.
    throw new ApiError(409, "conflict", `${name} changed hands twice while this change ran; the file that held the name is kept as ${aside} (${code(err) ?? "error"})`);
  }
  await fs.unlink(held.at(aside));
  return "kept";
}

/** Move a file unchanged (a link, then the source removed if still the file linked); a 409 if the target exists or the source is gone. */
export async function moveFile(source: string, target: string, displayTarget: string): Promise<void> {
  makeFolders(path.dirname(target), displayTarget);
  const from = HeldDir.open(path.dirname(source), path.basename(source));
  try {
    // The file this move made at the target is the inode it linked, which is the source it moves
    // (taken from the link made, not the name before it: the name may have changed hands between).
    const made = await withHeldDir(path.dirname(target), displayTarget, async (to) => {
      await linkInto(from.at(path.basename(source)), to.at(path.basename(target)), displayTarget);
      to.sync();
      const st = await fs.lstat(to.at(path.basename(target)));
      return { dev: st.dev, ino: st.ino };
    });
    await removeSourceOrUndo(from, source, target, made, made);
  } finally {
    from.close();
  }
}

/**
 * Resolve a root-relative path for writing: it must stay inside the root, through real folders
 * only (no `..`, no absolute path, no symlinked folder on the way).
 */
export async function resolveForWrite(root: string, relPath: string): Promise<string> {
  const parts = relPath.split("/");
  if (path.isAbsolute(relPath) || relPath.includes("\0") || parts.some((p) => p === "" || p === "." || p === "..")) {
    throw new ApiError(400, "bad_path", `refused path "${relPath}": it must stay inside the workspace`);
  }
  const realRoot = await fs.realpath(root);
  let dir = realRoot;
  for (const part of parts.slice(0, -1)) {
    dir = path.join(dir, part);
    const st = await fs.lstat(dir).catch(() => null);
    if (st && !st.isDirectory()) throw new ApiError(400, "bad_path", `refused path "${relPath}": ${part} is not a real folder`);
  }
  return path.join(dir, parts[parts.length - 1] ?? "");
}

/** A 409 when the target is taken: Mailroom never overwrites. */
export async function assertFree(abs: string, relPath: string, why: string): Promise<void> {
  const st = await fs.lstat(abs).catch(() => null);
  if (st) throw new ApiError(409, "target_exists", `${relPath} already exists${why ? ` (${why})` : ""}. Nothing was changed.`);
}
