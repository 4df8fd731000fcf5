// Sample workspaces in the project's fixtures/ folder, copied to a temp dir before a test writes to them.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const FIXTURES_DIR = path.join(__dirname, "..", "..", "fixtures");

export function fixturePath(...parts: string[]): string {
  return path.join(FIXTURES_DIR, ...parts);
}

function header(text: string, name: string): string | null {
  const head = text.split(/\r?\n\r?\n/, 1)[0] ?? "";
  const line = head.split(/\r?\n/).findLast((l) => l.startsWith(`${name}:`));
  return line ? line.slice(name.length + 1).trim() : null;
}

/**
 * Give each IGNITE file the mtime the tools would have left: the last Processed-At (or
 * Last-Retry-At, or Date). Git keeps no mtimes, and stuck detection depends on them.
 */
export function restoreIgniteMtimes(queueDir: string): void {
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && e.name.endsWith(".mime")) {
        const text = fs.readFileSync(p, "utf8");
        const stamp =
          header(text, "X-IGNITE-Last-Retry-At") && !p.includes(`${path.sep}processed${path.sep}`)
            ? header(text, "X-IGNITE-Last-Retry-At")
            : (header(text, "X-IGNITE-Processed-At") ?? header(text, "Date"));
        const ms = stamp ? Date.parse(stamp) : NaN;
        if (!Number.isNaN(ms)) fs.utimesSync(p, ms / 1000, ms / 1000);
      }
    }
  };
  if (fs.existsSync(queueDir)) walk(queueDir);
}

/** Copy fixtures/<name>/workspace (or fixtures/<name>) into a fresh temp folder; returns the copy. */
export function copyFixture(name: string, into?: string): string {
  const src = fs.existsSync(fixturePath(name, "workspace")) ? fixturePath(name, "workspace") : fixturePath(name);
  const dest = into ?? fs.mkdtempSync(path.join(os.tmpdir(), `mailroom-${name}-`));
  fs.cpSync(src, dest, { recursive: true });
  // A checkout may be read-only; the copy must be writable like a real workspace.
  const chmod = (p: string) => {
    const st = fs.statSync(p);
    fs.chmodSync(p, st.isDirectory() ? 0o755 : 0o644);
    if (st.isDirectory()) for (const e of fs.readdirSync(p)) chmod(path.join(p, e));
  };
  chmod(dest);
  if (name === "ignite") restoreIgniteMtimes(path.join(dest, ".ignite", "queue"));
  return dest;
}
