// The YAML body of a message, parsed to plain JSON values for the detail view. Pure.
import { parseYamlBounded } from "@/lib/protocols/bounded-yaml";
import type { BoundedParse } from "@/lib/protocols/limits";
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

/**
 * The body's YAML as the detail view, compose and the requeue editor read it: YAML 1.2's core
 * schema, as `yaml` reads it (dates stay text), within PARSE_LIMITS. `yaml` itself is not used on
 * untrusted text: its parser recursed 200,000 brackets deep into a stack overflow (2.5 s) and took
 * 18.7 s over a million-item list, where js-yaml stops at the limit in milliseconds.
 */
export function parseYamlBody(body: string): YamlBody {
  return asYamlBody(parseYamlBounded(body, { schema: "core" }));
}

/**
 * The same check at ingest speed, reading the body as ingest always has (js-yaml's default
 * schema: timestamps become ISO strings, `<<` merges), within the same limits.
 */
export function checkYamlBody(body: string): YamlBody {
  return asYamlBody(parseYamlBounded(body));
}

function asYamlBody(r: BoundedParse): YamlBody {
  if (r.ok) return { data: r.data, error: null };
  if (r.limit) return { data: null, error: r.problem };
  const where = r.line !== null ? ` (line ${r.line}, column ${r.column ?? 1})` : "";
  return { data: null, error: `The body is not valid YAML${where}: ${sentence(r.reason)}` };
}

function sentence(s: string): string {
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

export function isRecord(value: YamlValue | null | undefined): value is { [key: string]: YamlValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
