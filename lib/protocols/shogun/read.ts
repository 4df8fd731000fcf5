// Reads one shogun file into entries: an inbox (or its archive) gives one message per item of
// `messages:` (locator = its `id`, the same in the archive, so the core sees a move); commands,
// tasks and reports are documents threaded by `cmd_NNN`. Pure.
import type { YamlValue } from "@/lib/model";
import { parseYamlFile, type ItemRanges } from "@/lib/protocols/bounded-yaml";
import type { Entry, EntryProblem, FileRead } from "@/lib/protocols/entries";
import { decodeUtf8, isoToUtc, isRecord, listOf, makeEntry, str } from "@/lib/protocols/entry-kit";
import type { Place } from "@/lib/protocols/layout";
import { inboxShapeProblems } from "./inbox-format";
import { placeShogun } from "./paths";

export interface ReadOptions {
  /** Minutes east of UTC of the agents' local time (shogun timestamps have no offset); default: the server's. */
  utcOffsetMinutes?: number;
}

type Mapping = { [key: string]: YamlValue };
interface Item {
  value: Mapping;
  /** Its bytes, from its `- ` (see fromItsDash). */
  span: { start: number; end: number } | null;
  /** Where its mapping starts: what a locator without an id is made of (readers before version 4 made it so). */
  at: number | null;
}

const CMD = /\bcmd_\d+\b/;

function text(...parts: Array<YamlValue | undefined>): string {
  return parts.flatMap((p) => (typeof p === "string" && p !== "" ? [p] : Array.isArray(p) ? listOf(p) : [])).join("\n");
}

/**
 * UTF-8 byte offsets of ascending string indexes into `text` (the parser counts UTF-16 units,
 * entries are located in bytes), in one pass over the text.
 */
export function byteOffsets(text: string, indexes: readonly number[]): number[] {
  const out: number[] = [];
  let charAt = 0;
  let byteAt = 0;
  for (const index of indexes) {
    byteAt += Buffer.byteLength(text.slice(charAt, index), "utf8");
    charAt = index;
    out.push(byteAt);
  }
  return out;
}

/**
 * Where a block list item starts: at its line's `- ` (with the line's indent) when only those come
 * before the mapping on its line, so an entry's own bytes are YAML as they stand (a list of one
 * item). From the mapping alone, its first key had no indent and the rest two: not YAML.
 */
function fromItsDash(source: string, start: number): number {
  let i = start;
  while (i > 0 && source[i - 1] === " ") i--;
  if (source[i - 1] !== "-") return start;
  i--;
  while (i > 0 && source[i - 1] === " ") i--;
  return i === 0 || source[i - 1] === "\n" ? i : start;
}

/** The mappings of a top-level list (`messages:`, `commands:`), each with its bytes in the file. */
function itemsOf(ranges: ItemRanges, data: Mapping, key: string, source: string): Item[] {
  const list = data[key];
  if (!Array.isArray(list)) return [];
  // None when the list is an alias (`messages: *old`): its items are not where they are read.
  const items = (ranges.get(key) ?? []).map(([start, end]) => [fromItsDash(source, start), start, end] as const);
  // byteOffsets takes ascending indexes, once each.
  const chars = [...new Set(items.flat())].sort((a, b) => a - b);
  const byteAt = items.length === list.length ? new Map(byteOffsets(source, chars).map((b, i) => [chars[i], b])) : null;
  return list.flatMap((value, i) => {
    if (!isRecord(value)) return [];
    const [dash, at, end] = (items[i] ?? []).map((c) => byteAt?.get(c));
    return [{ value, span: dash !== undefined && end !== undefined ? { start: dash, end } : null, at: at ?? null }];
  });
}

/**
 * A locator unique in its file: the id, else the item's byte offset (its place in the list when
 * the parser gave no position); a repeated id gets its offset too.
 */
function locatorOf(id: string | null, item: Item, index: number, seen: Set<string>, problems: EntryProblem[]): string {
  const offset = String(item.at ?? index);
  if (id === null) return offset;
  if (!seen.has(id)) {
    seen.add(id);
    return id;
  }
  problems.push({ code: "duplicate", message: `Another entry in this file has the id ${id}.` });
  return `${id}@${offset}`;
}

function readFlag(m: Mapping): { status: string; raw: string | null } {
  if (typeof m.read === "boolean") return { status: m.read ? "read" : "unread", raw: String(m.read) };
  // The later variant's `status: pending | seen | done`.
  const raw = str(m.status);
  return { status: raw === "seen" || raw === "done" ? "read" : "unread", raw };
}

function inboxEntries(place: Place, items: Item[], opts: ReadOptions): Entry[] {
  const seen = new Set<string>();
  return items.map((item, index) => {
    const m = item.value;
    const problems: EntryProblem[] = [];
    const id = str(m.id);
    const { status, raw } = readFlag(m);
    const body = text(m.subject, m.content, m.body);
    if (place.agent === "shogun" && place.folder === "inbox") {
      // Upstream's rule: karo reports to the shogun through dashboard.md, never through an inbox.
      problems.push({ code: "rule:no-inbox-to-shogun", message: "Nothing is to be sent to the shogun's inbox; karo reports through dashboard.md." });
    }
    return makeEntry({
      kind: "message", locator: locatorOf(id, item, index, seen, problems), span: item.span, messageId: id,
      from: str(m.from), to: m.to === undefined ? [place.agent] : listOf(m.to), type: str(m.type),
      date: isoToUtc(m.timestamp, opts.utcOffsetMinutes), agent: place.agent, folder: place.folder, status, rawStatus: raw,
      threadKey: CMD.exec(text(body, m.refs))?.[0] ?? null, body, data: m, problems,
    });
  });
}

/** `commands:` or `queue:` lists, or a bare mapping: one command, or commands by id. */
function commandItems(ranges: ItemRanges, data: Mapping, source: string): Item[] {
  for (const key of ["commands", "queue"]) if (Array.isArray(data[key])) return itemsOf(ranges, data, key, source);
  if ("id" in data) return [{ value: data, span: null, at: null }];
  return Object.entries(data).flatMap(([id, v]) => (isRecord(v) ? [{ value: { id, ...v }, span: null, at: null }] : []));
}

/**
 * Who hands out tasks and reads the reports: upstream's own file map says so ("queue/tasks/ashigaru{N}.yaml:
 * Karo → Ashigaru assignments", "queue/reports/ashigaru{N}_report.yaml: Ashigaru → Karo reports");
 * neither file names it.
 */
const TASK_MASTER = "karo";

function documentEntry(place: Place, m: Mapping, fields: Partial<Entry> & { locator: string }, opts: ReadOptions): Entry {
  return makeEntry({
    kind: "document", agent: place.agent, folder: place.folder, status: str(m.status) ?? "pending", rawStatus: str(m.status),
    date: isoToUtc(m.timestamp, opts.utcOffsetMinutes), data: m, ...fields,
  });
}

function entriesOf(place: Place, relPath: string, ranges: ItemRanges, data: Mapping, source: string, opts: ReadOptions): Entry[] {
  switch (place.role) {
    case "inbox":
    case "archive":
      return inboxEntries(place, itemsOf(ranges, data, "messages", source), opts);
    case "command": {
      const items = commandItems(ranges, data, source);
      const sender = /([A-Za-z0-9][A-Za-z0-9_.-]*)_to_/.exec(relPath.split("/").pop() ?? "")?.[1] ?? null;
      const seen = new Set<string>();
      return items.map((item, index) => {
        const id = str(item.value.id);
        const problems: EntryProblem[] = [];
        return documentEntry(place, item.value, {
          problems, locator: locatorOf(id, item, index, seen, problems), span: item.span, messageId: id, type: "command", from: sender, to: [place.agent],
          priority: str(item.value.priority), threadKey: id, body: text(item.value.purpose, item.value.command, item.value.acceptance_criteria),
        }, opts);
      });
    }
    case "task": {
      const task = isRecord(data.task) ? data.task : data;
      const id = str(task.task_id);
      return [documentEntry(place, task, { locator: id ?? "", messageId: id, type: "task", from: TASK_MASTER, to: [place.agent], threadKey: str(task.parent_cmd), body: text(task.description) }, opts)];
    }
    case "report": {
      const id = str(data.task_id);
      const result = isRecord(data.result) ? data.result : {};
      const worker = str(data.worker_id) ?? place.agent;
      // No id of its own: its task_id names the task it answers (a link). As its id, the task's, the
      // report's arrival read as the task moving into the reports folder, and the task was lost.
      return [documentEntry({ ...place, agent: worker }, data, {
        locator: id ?? "", messageId: null, type: "report", from: worker, to: [TASK_MASTER], threadKey: str(data.parent_cmd), body: text(result.summary, result.notes),
        links: id ? [{ kind: "replies", targetId: id }] : [],
      }, opts)];
    }
    default:
      return [];
  }
}

export function read(relPath: string, bytes: Uint8Array, opts: ReadOptions = {}): FileRead {
  const place = placeShogun(relPath);
  if (!place) return { entries: [], problems: [{ code: "path", message: `${relPath} is not a shogun inbox, command, task or report file.` }], consumed: bytes.length };
  const fileProblems: EntryProblem[] = [];
  const source = decodeUtf8(bytes, fileProblems);
  // As the agents' PyYAML reads it: `content: 1e3` is text there, not the number 1000.
  const parsed = parseYamlFile(source, "The file", { itemRanges: true, schema: "pyyaml" });
  // A writer without the inbox lock (slim_yaml) may leave a half-written file: the core reads it again when it changes.
  if (parsed.problem) return { entries: [], problems: [...fileProblems, parsed.problem], consumed: bytes.length, unparsed: true };
  // `messages:` with no value is an empty inbox; so is an empty file.
  const data = parsed.data === null ? {} : parsed.data;
  if (!isRecord(data)) return { entries: [], problems: [{ code: "parse", message: "The file is not a YAML mapping." }], consumed: bytes.length, unparsed: true };
  const shape = place.role === "inbox" || place.role === "archive" ? inboxShapeProblems(data.messages) : [];
  // Not a list at all: nothing in it is a message, as when it does not parse (before, its messages went quietly).
  if (shape.some((p) => p.code === "parse")) return { entries: [], problems: [...fileProblems, ...shape], consumed: bytes.length, unparsed: true };
  return { entries: entriesOf(place, relPath, parsed.items, data, source, opts), problems: [...fileProblems, ...shape], consumed: bytes.length };
}
