// The YAML body of a message, parsed to plain JSON values for the detail view. Pure.
import { parseBodyYaml, parseYamlBounded, yamlProblem } from "@/lib/protocols/bounded-yaml";
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
  return parseBodyYaml(body);
}

/**
 * The same check at ingest speed, reading the body as ingest always has (js-yaml's default
 * schema: timestamps become ISO strings, `<<` merges), within the same limits.
 */
export function checkYamlBody(body: string): YamlBody {
  return asYamlBody(parseYamlBounded(body));
}

function asYamlBody(r: BoundedParse): YamlBody {
  return r.ok ? { data: r.data, error: null } : { data: null, error: yamlProblem(r, "The body").message };
}

export { isRecord } from "@/lib/protocols/entry-kit";
