// Shared by the adapter's tests: the IGNITE fixture (read only) and temp copies to write into.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fixturePath } from "@/lib/testing/fixtures";

export const FIXTURE = fixturePath("ignite");
export const FIXTURE_ROOT = path.join(FIXTURE, "workspace");
export const EXPECTED_DIR = path.join(FIXTURE, "expected");

/** Every fixture .mime path relative to `.ignite/`, e.g. `queue/leader/x.mime`. */
export function fixtureMessages(): string[] {
  return fs
    .readdirSync(EXPECTED_DIR)
    .filter((n) => n.endsWith(".json"))
    .map((n) => n.slice(0, -".json".length).split("__").join("/"))
    .sort();
}

/** A fresh copy of the fixture workspace in the OS temp dir (never write into the fixture). */
export function tempWorkspace(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mailroom-ignite-"));
  fs.cpSync(FIXTURE_ROOT, dir, { recursive: true });
  return dir;
}

export function removeTemp(dir: string): void {
  if (dir.startsWith(os.tmpdir())) fs.rmSync(dir, { recursive: true, force: true });
}
