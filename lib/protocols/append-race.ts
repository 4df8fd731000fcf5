// For the append writers' tests: child processes appending compact JSON lines to one file at once,
// each line one O_APPEND write, as the agents' Node tools do (`fs.appendFileSync`).
import { spawn } from "node:child_process";

const CHILD = `
const fs = require("node:fs");
const [file, lane, count, pad] = process.argv.slice(1);
for (let i = 0; i < Number(count); i++) {
  const value = { id: "child_" + lane + "_" + i, lane: Number(lane), i, pad: "x".repeat((i * 997) % Number(pad)) };
  fs.appendFileSync(file, JSON.stringify(value) + "\\n");
}`;

/** Start `lanes` processes appending `count` lines each (padding up to `pad` bytes); resolves with their exit codes. */
export function appendFromChildren(file: string, lanes: number, count: number, pad: number): Promise<Array<number | null>> {
  return Promise.all(
    Array.from({ length: lanes }, (_, lane) => new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, ["-e", CHILD, file, String(lane), String(count), String(pad)], { stdio: "inherit" });
      child.on("close", resolve);
    })),
  );
}
