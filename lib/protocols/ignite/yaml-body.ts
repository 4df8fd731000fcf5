// The YAML body of a message, parsed to plain JSON values for the detail view. Pure.
import { load as loadFast, YAMLException } from "js-yaml";
import { parseDocument } from "yaml";
import type { YamlValue } from "@/lib/model";

export interface YamlBody {
  data: YamlValue | null;
  /** A sentence saying where and why the body does not parse, or null. */
  error: string | null;
}

/** IGNITE bodies are `text/x-yaml`; a file without Content-Type is treated as YAML too. */
export function isYamlContentType(contentType: string | undefined): boolean {
  return !contentType || /yaml/i.test(contentType);
}

export function parseYamlBody(body: string): YamlBody {
  // uniqueKeys off: upstream writers (PyYAML, shell) let a later duplicate key win.
  const doc = parseDocument(body, { uniqueKeys: false, prettyErrors: true });
  const first = doc.errors[0];
  if (first) {
    const pos = first.linePos?.[0];
    const where = pos ? ` (line ${pos.line}, column ${pos.col})` : "";
    const reason = (first.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "");
    return { data: null, error: `The body is not valid YAML${where}: ${sentence(reason)}` };
  }
  try {
    // mapAsMap: keys that are not strings become String(key) in toPlain, without yaml's warning.
    return { data: toPlain(doc.toJS({ maxAliasCount: 100, mapAsMap: true })), error: null };
  } catch (err) {
    // e.g. alias expansion beyond maxAliasCount (a "billion laughs" body)
    return { data: null, error: `The body is not valid YAML: ${sentence(err instanceof Error ? err.message : String(err))}` };
  }
}

/**
 * The same check at ingest speed: js-yaml is an order of magnitude faster than `yaml`, which
 * matters when a first scan reads 100,000 bodies. The detail view keeps parseYamlBody.
 */
export function checkYamlBody(body: string): YamlBody {
  try {
    // json: a later duplicate key wins, as with upstream writers (PyYAML, shell).
    return { data: toPlain(loadFast(body, { json: true })), error: null };
  } catch (err) {
    if (!(err instanceof YAMLException)) throw err;
    const where = err.mark ? ` (line ${err.mark.line + 1}, column ${err.mark.column + 1})` : "";
    return { data: null, error: `The body is not valid YAML${where}: ${sentence(err.reason || "it does not parse")}` };
  }
}

function sentence(s: string): string {
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

/** Plain JSON values only: no Map/Set/Date/bigint/NaN reaches the API. */
export function toPlain(value: unknown): YamlValue {
  if (value === null || value === undefined) return null;
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Array.isArray(value) || value instanceof Set) return Array.from(value, toPlain);
  if (value instanceof Map) {
    return Object.fromEntries(Array.from(value, ([k, v]) => [String(k), toPlain(v)]));
  }
  if (typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toPlain(v)]));
  }
  return String(value);
}

export function isRecord(value: YamlValue | null | undefined): value is { [key: string]: YamlValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
