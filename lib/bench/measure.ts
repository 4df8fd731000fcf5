// Measuring helpers for scripts/bench.ts: latency percentiles, process-tree memory and CPU, a cold page cache.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

// Kept-alive connections, as a browser's polls use. node:http rather than fetch: undici's fetch
// adds ~1 ms to every request and ~3 ms to the p95 on a 2-core machine, which would be timed as
// the server's.
const agent = new http.Agent({ keepAlive: true });

/** Close the kept-alive connections, so the bench can exit. */
export function closeConnections(): void {
  agent.destroy();
}

export interface Timed {
  ms: number;
  /** The parsed JSON; null for a 304. */
  body: unknown;
  status: number;
  etag: string | null;
}

/** GET a JSON URL; the time is from sending the request to the whole body parsed. A 304 has no body. */
export async function timedJson(url: string, headers: Record<string, string> = {}): Promise<Timed> {
  try {
    return await getJson(url, headers);
  } catch (err) {
    // A kept-alive connection the server closed just as it was reused: Node's documented case
    // for sending an idempotent request again (https://nodejs.org/api/http.html#requestreusedsocket).
    if (err instanceof StaleConnectionError) return getJson(url, headers);
    throw err;
  }
}

class StaleConnectionError extends Error {}

function getJson(url: string, headers: Record<string, string>): Promise<Timed> {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        try {
          const status = res.statusCode ?? 0;
          const body: unknown = status === 304 ? null : JSON.parse(Buffer.concat(chunks).toString("utf8"));
          if (status !== 304 && (status < 200 || status >= 300)) throw new Error(`${url}: ${status} ${JSON.stringify(body)}`);
          resolve({ ms: performance.now() - t, body, status, etag: res.headers.etag ?? null });
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      });
    });
    req.on("error", (err: NodeJS.ErrnoException) => {
      reject(req.reusedSocket && err.code === "ECONNRESET" ? new StaleConnectionError(err.message) : err);
    });
  });
}

/** Read every file under `dir` once; the baseline the ingest budget is measured against. */
export function readEveryFile(dir: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) n += readEveryFile(p);
    else if (e.isFile()) {
      fs.readFileSync(p);
      n++;
    }
  }
  return n;
}

/**
 * Empty the kernel's page, dentry and inode caches (written data synced first), so the next reads
 * come from the disk. Linux only, and only as root: false when that is not allowed here.
 */
export function dropPageCache(): boolean {
  try {
    spawnSync("sync");
    fs.writeFileSync("/proc/sys/vm/drop_caches", "3");
    return true;
  } catch {
    return false;
  }
}

/** A process and its descendants (`next start` runs the server in a child). */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // ended meanwhile
    }
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  const out: number[] = [];
  const visit = (p: number) => {
    out.push(p);
    for (const c of children.get(p) ?? []) visit(c);
  };
  visit(pid);
  return out;
}

function readProc(pid: number, file: string): string {
  try {
    return fs.readFileSync(`/proc/${pid}/${file}`, "utf8");
  } catch {
    return "";
  }
}

/** RSS of a process and its descendants, in MB. */
export function treeRssMb(pid: number): number {
  return processTree(pid).reduce((kb, p) => kb + Number(/VmRSS:\s+(\d+)/.exec(readProc(p, "status"))?.[1] ?? 0), 0) / 1024;
}

/** CPU seconds (user + system) used so far by a process and its descendants. */
export function treeCpuSeconds(pid: number): number {
  const ticks = processTree(pid).reduce((sum, p) => {
    const stat = readProc(p, "stat");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return sum + Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
  }, 0);
  return ticks / 100; // USER_HZ is 100 on Linux
}

/**
 * Bytes a process and its descendants have read so far, by any read call (`rchar` of
 * /proc/<pid>/io: files, the page cache, sockets and SQLite alike), or null where it cannot be read.
 */
export function treeReadBytes(pid: number): number | null {
  let total = 0;
  for (const p of processTree(pid)) {
    const rchar = /^rchar:\s+(\d+)/m.exec(readProc(p, "io"))?.[1];
    if (rchar === undefined) {
      if (p === pid) return null;
      continue; // a child that ended meanwhile
    }
    total += Number(rchar);
  }
  return total;
}

/** The machine's CPU time so far (/proc/stat, jiffies): all of it, and what a VM's host gave to other guests ("steal"). Null off Linux. */
export function machineCpuTicks(): { total: number; steal: number } | null {
  let line: string | undefined;
  try {
    line = fs.readFileSync("/proc/stat", "utf8").split("\n")[0];
  } catch {
    return null;
  }
  const ticks = (line ?? "").split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is counted in user already)
  return { total: ticks.slice(0, 8).reduce((a, b) => a + (b || 0), 0), steal: ticks[7] ?? 0 };
}

/** The share of the machine's CPU time stolen by its host between two samples, or null. */
export function stealShare(from: ReturnType<typeof machineCpuTicks>, to: ReturnType<typeof machineCpuTicks>): number | null {
  if (!from || !to || to.total <= from.total) return null;
  return (to.steal - from.steal) / (to.total - from.total);
}
