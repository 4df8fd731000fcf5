// Files written to stall or exhaust a parser, each in an IGNITE queue, with the problem Mailroom
// lists it with (null: a well-formed file that must simply not loop). Generated, never committed;
// the hostile tests and `npm run bench -- --hostile` write the same set.
import fs from "node:fs";
import path from "node:path";

export interface HostileFile {
  /** Root-relative path. */
  relPath: string;
  text: string;
  /** The problem the file is listed with (a substring), or null when it is listed without one. */
  problem: string | null;
}

const MIB = 1024 * 1024;
const DATE = "Fri, 20 Nov 2026 10:00:00 +0900";

function headers(id: string, extra: string[] = [], type = "task_assignment"): string {
  return [
    "MIME-Version: 1.0", `Message-ID: <${id}@ignite.local>`, "From: leader", "To: architect", `Date: ${DATE}`,
    `X-IGNITE-Type: ${type}`, ...extra, "Content-Type: text/x-yaml; charset=utf-8",
  ].join("\n");
}

const message = (id: string, body: string, extra: string[] = [], type?: string) => `${headers(id, extra, type)}\n\n${body}`;

/** Nine levels of nine aliases: 574 bytes that expand to 9^9 strings. */
export function nestedAliasBomb(): string {
  const names = "abcdefghi";
  const lines = [`a: &a [${Array(9).fill('"lol"').join(",")}]`];
  for (let i = 1; i < names.length; i++) lines.push(`${names[i]}: &${names[i]} [${Array(9).fill(`*${names[i - 1]}`).join(",")}]`);
  return lines.join("\n") + "\n";
}

/** One list of a hundred values, aliased ten thousand times. */
export function wideAliasBomb(): string {
  return `a: &a [${Array.from({ length: 100 }, (_, i) => i).join(",")}]\nb: [${Array(10_000).fill("*a").join(",")}]\n`;
}

/** One 512 KiB string aliased 99 times (under the alias count, 49.5 MiB of text). */
export function scalarAliasBomb(): string {
  return `a: &a "${"x".repeat(512 * 1024)}"\nb: [${Array(99).fill("*a").join(",")}]\n`;
}

/** A thousand-key map merged (`<<`) into five thousand maps: five million key copies. */
export function mergeKeyBomb(): string {
  const keys = Array.from({ length: 1000 }, (_, i) => `k${i}: ${i}`).join(", ");
  return `base: &b {${keys}}\nitems:\n${"  - <<: *b\n".repeat(5000)}`;
}

/** `n` nested flow brackets, opened then closed: YAML flow or JSON. */
export function deepBrackets(n = 200_000): string {
  return `${"[".repeat(n)}${"]".repeat(n)}`;
}

/** `line` a million times, one a line. */
export function shortLines(line: string, n = 1_000_000): string {
  return `${line}\n`.repeat(n);
}

/** One line of `before`, `chars` characters of padding, then `after`: a multi-megabyte single line. */
export function longLine(before: string, after = "", chars = 7 * MIB): string {
  return `${before}${"x".repeat(chars)}${after}`;
}

/** `length` bytes from a fixed seed (xorshift): no text encoding, no structure, the same every run. */
export function binaryGarbage(length = 64 * 1024, seed = 0x2545f491): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** `text` cut just inside its first double-quoted string, as a writer killed mid-write leaves it. */
export function truncatedInString(text: string): string {
  const at = text.indexOf('"');
  if (at < 0) throw new Error("no quoted string to cut in");
  return text.slice(0, at + 2);
}

/** A dead letter holding a dead letter holding …, `depth` deep, around one task message. */
export function nestedDeadLetter(depth: number): string {
  let text = message("dl_0", 'task_id: "t_nested"\n');
  for (let level = 1; level <= depth; level++) {
    const indented = text.split("\n").map((l) => (l === "" ? "" : `  ${l}`)).join("\n");
    const body = `original_file: "dl_${level - 1}.mime"\nfailure_info:\n  retry_count: 3\n  last_error: "level ${level}"\noriginal_message: |\n${indented}\n`;
    text = message(`dl_${level}`, body, ["X-IGNITE-Status: dead_letter"], "dead_letter");
  }
  return text;
}

/** An IGNITE v2 (YAML) dead letter holding a dead letter holding …, `depth` deep, around one task. */
export function nestedYamlDeadLetter(depth: number): string {
  let text = 'type: task_assignment\nfrom: leader\nto: architect\npayload:\n  task_id: "t_nested"\n';
  for (let level = 1; level <= depth; level++) {
    const indented = text.split("\n").map((l) => (l === "" ? "" : `  ${l}`)).join("\n");
    text = `type: dead_letter\noriginal_file: "dl_${level - 1}.yaml"\nfailure_info:\n  retry_count: 3\n  last_error: "level ${level}"\noriginal_message: |\n${indented}`;
  }
  return text;
}

/** The set, under `.ignite/queue/` of an IGNITE workspace. */
export function hostileFiles(): HostileFile[] {
  const q = (...parts: string[]) => [".ignite", "queue", ...parts].join("/");
  const yaml = (name: string, body: string, problem: string | null): HostileFile => ({ relPath: q("architect", `${name}.mime`), text: message(name, body), problem });
  const manyHeaders = Array.from({ length: 100_000 }, (_, i) => `X-Pad-${i}: ${i}`);
  return [
    yaml("alias_nested", nestedAliasBomb(), "YAML body: more than 100 aliases expanded (limit)."),
    yaml("alias_wide", wideAliasBomb(), "YAML body: more than 100 aliases expanded (limit)."),
    yaml("alias_scalar", scalarAliasBomb(), "YAML body: aliases expand to more than 1,024 KiB of text (limit)."),
    yaml("alias_merge", mergeKeyBomb(), "YAML body: more than 10,000 keys copied by `<<` merges (limit)."),
    yaml("deep_brackets", `x: ${"[".repeat(200_000)}${"]".repeat(200_000)}\n`, "YAML body: nested more than 64 deep (limit)."),
    yaml("deep_maps", `x: ${"{a: ".repeat(50_000)}1${"}".repeat(50_000)}\n`, "YAML body: nested more than 64 deep (limit)."),
    yaml("million_lines", "- a\n".repeat(1_000_000), "YAML body: more than 100,000 values (limit)."),
    { relPath: q("architect", "many_headers.mime"), text: message("many_headers", "task_id: t\n", manyHeaders), problem: "Headers: more than 1,000 header lines (limit)." },
    { relPath: q("architect", "long_header.mime"), text: message("long_header", "task_id: t\n", [`Subject: ${"s".repeat(7 * MIB)}`]), problem: "Headers: a header line longer than 16 KiB (limit)." },
    { relPath: q("architect", "self_reply.mime"), text: message("self_reply", "task_id: t\n", ["In-Reply-To: <self_reply@ignite.local>"]), problem: null },
    { relPath: q("architect", "cycle_a.mime"), text: message("cycle_a", "task_id: t\n", ["In-Reply-To: <cycle_b@ignite.local>"]), problem: null },
    { relPath: q("architect", "cycle_b.mime"), text: message("cycle_b", "task_id: t\n", ["In-Reply-To: <cycle_a@ignite.local>"]), problem: null },
    { relPath: q("dead_letter", "dl_200_dlq_1795300000.mime"), text: nestedDeadLetter(200), problem: null },
  ];
}

/** Write the set into `root` (an IGNITE workspace); returns it. */
export function writeHostileFiles(root: string): HostileFile[] {
  const files = hostileFiles();
  for (const f of files) {
    const file = path.join(root, ...f.relPath.split("/"));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, f.text);
  }
  return files;
}
