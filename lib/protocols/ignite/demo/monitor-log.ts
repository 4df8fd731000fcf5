// The queue monitor's log, `.ignite/logs/queue_monitor.log`, in upstream's line format:
// `[YYYY-MM-DD HH:MM:SS] [LEVEL] message` in local time (no colours: they are off without a TTY).
import fs from "node:fs";
import path from "node:path";
import { isoWithOffset } from "../build";

export type LogLevel = "INFO" | "OK" | "WARN" | "RETRY" | "ERROR";

const pad = (n: number) => String(n).padStart(2, "0");

export function logTimestamp(date: Date): string {
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return `${day} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

export class MonitorLog {
  constructor(
    private readonly file: string,
    private readonly clock: () => Date,
  ) {}

  /** The line `ignite start` writes before the monitor's own lines. */
  banner(session: string): void {
    this.append(`========== ${session} started at ${isoWithOffset(this.clock())} ==========`);
  }

  write(level: LogLevel, message: string): void {
    this.append(`[${logTimestamp(this.clock())}] [${level}] ${message}`);
  }

  private append(line: string): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    fs.appendFileSync(this.file, line + "\n", { mode: 0o600 });
  }
}
