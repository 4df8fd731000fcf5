// The KickLang channel `npm run bench -- --stream` grows: pre-filled to a size with reports in
// dispatch threads, then appended to one envelope at a time, each one O_APPEND write of one whole
// line, as KickLang's writer appends (lib/protocols/kicklang/writer.ts).
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { benchUuid, channelFile, DISPATCH, envelopeLine, FileAppender, KICKLANG_ROLES, reportEnvelope, STATUS } from "./generate-wave2";

const KIND_DISPATCH = 0xd1;
const KIND_REPORT = 0x5e;

export interface Prefilled {
  /** The channel file the bench appends to (⫻report/status). */
  file: string;
  bytes: number;
  /** Envelopes in it, and the dispatches they answer (in ⫻command/dispatch): all messages. */
  messages: number;
  /** Dispatch ids the appended reports correlate to. */
  requests: string[];
}

/** Text of about `bytes` UTF-8 bytes: Japanese and ASCII, as reports mix them. */
function padding(bytes: number): string {
  const unit = "進捗報告: テスト追加とリンク切れ修正を実行中 (progress report, tests and links) ";
  const n = Math.max(0, Math.floor(bytes / Buffer.byteLength(unit)));
  return unit.repeat(n).trimEnd();
}

/**
 * ⫻report/status filled with reports of `lineBytes` each until it holds `targetBytes`, written in
 * ~1 MiB writes (never the whole channel in memory); their dispatches go to ⫻command/dispatch,
 * one per `thread` reports (KickLang's normal loop: Accepted, an artifact, Completed).
 */
export function prefillChannel(root: string, targetBytes: number, lineBytes = 2048, thread = 3): Prefilled {
  const start = Date.parse("2026-01-01T00:00:00Z");
  const reports = new FileAppender(channelFile(root, STATUS));
  const dispatches = new FileAppender(channelFile(root, DISPATCH));
  const text = padding(Math.max(0, lineBytes - 330));
  const requests: string[] = [];
  let messages = 0;
  for (let i = 0; reports.bytes < targetBytes; i++) {
    const task = Math.floor(i / thread);
    const role = KICKLANG_ROLES[task % KICKLANG_ROLES.length] as string;
    const ms = start + i * 1000;
    if (i % thread === 0) {
      const id = benchUuid(KIND_DISPATCH, task);
      requests.push(id);
      dispatches.add(envelopeLine({ id, timestamp: new Date(ms).toISOString(), sender: "Orchestrator", receiver: role, type: "Command", channel: DISPATCH, content: `${DISPATCH}:task_${task}/001\n報告を続けよ`, correlationId: null }));
      messages++;
    }
    reports.add(envelopeLine(reportEnvelope(benchUuid(KIND_REPORT, i), ms, role, requests[task] as string, task, 1 + (i % thread), `${i}: ${text}`)));
    messages++;
  }
  reports.close();
  dispatches.close();
  return { file: channelFile(root, STATUS), bytes: reports.bytes, messages, requests };
}

/** Appends reports to the channel one line per write (O_APPEND); remembers when each id was written. */
export class ChannelWriter {
  private readonly fd: number;
  /** Envelope id → performance.now() just before its write. */
  readonly writtenAt = new Map<string, number>();
  bytes = 0;
  private n = 0;

  constructor(file: string, private readonly requests: readonly string[]) {
    this.fd = fs.openSync(file, "a");
  }

  /** One envelope, its timestamp its write time, in the thread of one of the pre-fill's dispatches. */
  append(): string {
    const id = randomUUID();
    const task = this.n % this.requests.length;
    const role = KICKLANG_ROLES[task % KICKLANG_ROLES.length] as string;
    const now = Date.now();
    const line = envelopeLine(reportEnvelope(id, now, role, this.requests[task] as string, task, 900 + (this.n % 100), `live ${this.n} written ${now}`));
    this.n++;
    this.writtenAt.set(id, performance.now());
    this.bytes += fs.writeSync(this.fd, line);
    return id;
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}

/** `perSecond` appends a second for `seconds`, in 10 ms ticks (a timer cannot fire every 1 ms). */
export async function appendAtRate(writer: ChannelWriter, perSecond: number, seconds: number): Promise<number> {
  const started = performance.now();
  const total = Math.round(perSecond * seconds);
  let written = 0;
  while (written < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) * perSecond) / 1000));
    for (; written < due; written++) writer.append();
    await new Promise((r) => setTimeout(r, 10));
  }
  return written;
}
