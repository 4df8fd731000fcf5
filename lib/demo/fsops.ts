// File operations as docs/DESIGN.md's safety rules want them: a temp file whose name starts with "."
// (outside the watched `*.mime` pattern) in the same folder, fsync, rename; moves are one rename
// and never overwrite; new files get mode 0600. Synchronous on purpose: the simulator's tick()
// is a deterministic step, and the tree is small.
import fs from "node:fs";
import path from "node:path";

/** Write `text` to `file` atomically (replacing it if present) and stamp its mtime. */
export function writeFileAtomic(file: string, text: string, mtime: Date): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.tmp-${process.pid}`);
  const fd = fs.openSync(tmp, "w", 0o600);
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.chmodSync(tmp, 0o600);
    // The monitor's timeout is by mtime; stamping it keeps the tree consistent with the clock.
    fs.utimesSync(tmp, mtime, mtime);
    fs.renameSync(tmp, file);
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    throw error;
  }
}

/** Create a new file atomically; false (nothing written) when `file` already exists. */
export function createFileAtomic(file: string, text: string, mtime: Date): boolean {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (fs.existsSync(file)) return false;
  writeFileAtomic(file, text, mtime);
  return true;
}

/** Move with one rename; false when the source is gone or the target exists. */
export function moveNoClobber(from: string, to: string): boolean {
  if (fs.existsSync(to)) return false;
  try {
    fs.renameSync(from, to);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

/** The file's text, or null when it is gone (an agent or Mailroom may move it at any time). */
export function readIfExists(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

export function mtimeMs(file: string): number | null {
  try {
    return fs.statSync(file).mtimeMs;
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

export function removeIfExists(file: string): boolean {
  try {
    fs.unlinkSync(file);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

/** `*.mime` files directly in `dir`, sorted; dot files (our temp files) are never listed. */
export function listMimeFiles(dir: string): string[] {
  return listFilesEnding(dir, ".mime");
}

/** Files directly in `dir` whose names end in `ending`, sorted; dot files never. */
export function listFilesEnding(dir: string, ending: string): string[] {
  return listNames(dir, (e) => e.isFile() && e.name.endsWith(ending));
}

/** Sub-folders of `dir`, sorted, dot folders skipped. */
export function listDirs(dir: string): string[] {
  return listNames(dir, (e) => e.isDirectory());
}

function listNames(dir: string, keep: (entry: fs.Dirent) => boolean): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => !e.name.startsWith(".") && keep(e))
      .map((e) => e.name)
      .sort();
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

export function isMissing(error: unknown): boolean {
  return error instanceof Error && "code" in error && (error.code === "ENOENT" || error.code === "ENOTDIR");
}
