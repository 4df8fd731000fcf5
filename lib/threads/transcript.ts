// A thread as a Markdown transcript: per message its time, from → to, type, status and body. Pure.
import type { MessageSummary } from "@/lib/model";
import type { ThreadDetail } from "./model";

/** Backslash-escape what Markdown would read as markup in a one-line value. */
export function mdText(text: string): string {
  return text.replace(/[\\`*_{}[\]<>()#+!|~]/g, (c) => `\\${c}`).replace(/[\r\n]+/g, " ");
}

/** A fence longer than any run of backticks in the text, so the body cannot close it. */
export function fenceFor(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  return "`".repeat(Math.max(3, longest + 1));
}

function utc(iso: string | null): string {
  if (!iso) return "no date";
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : new Date(t).toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
}

function statusLine(m: MessageSummary): string {
  const notes = [
    m.rawStatus && m.rawStatus !== m.status ? `file says ${m.rawStatus}` : null,
    m.stuck ? "stuck" : null,
    m.retryCount > 0 ? `retry ${m.retryCount}` : null,
    m.deadLetterOf ? "dead letter" : null,
  ].filter(Boolean);
  return notes.length ? `${m.status} (${notes.join(", ")})` : m.status;
}

export function threadMarkdown(t: ThreadDetail, bodies: Map<string, string>): string {
  const out: string[] = [`# Thread ${mdText(t.id)}`, ""];
  out.push(`- Kind: ${t.kind === "header" ? "header (the thread id its messages state)" : "inferred"}`);
  out.push(`- Messages: ${t.messages.length}`);
  if (t.messages.length > 0) {
    const first = t.messages[0];
    const last = t.messages[t.messages.length - 1];
    out.push(`- From ${utc(first?.date ?? null)} to ${utc(last?.date ?? null)}`);
  }
  if (t.missing.length > 0) out.push(`- Replies to messages not in this thread: ${t.missing.map((m) => mdText(m.messageId)).join(", ")}`);
  t.messages.forEach((m, i) => {
    const body = bodies.get(m.key) ?? "";
    const fence = fenceFor(body);
    out.push(
      "",
      `## ${i + 1}. ${mdText(m.type ?? "no type")}`,
      "",
      `- Time: ${utc(m.date)}`,
      `- From → to: ${mdText(m.from ?? "unknown")} → ${mdText(m.to.join(", ") || "nobody")}${m.cc.length ? ` (cc ${mdText(m.cc.join(", "))})` : ""}`,
      `- Type: ${mdText(m.type ?? "none")}`,
      `- Status: ${statusLine(m)}`,
      `- Message-ID: ${m.messageId ? mdText(m.messageId) : "none"}`,
    );
    if (m.inReplyTo) out.push(`- In reply to: ${mdText(m.inReplyTo)}`);
    out.push(`- Key: ${m.key}`, "", `${fence}text`, body.replace(/\n$/, ""), fence);
  });
  return out.join("\n") + "\n";
}
