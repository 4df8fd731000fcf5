// YAML 1.1's plain scalars as PyYAML's safe_load resolves them (the regular expressions of
// yaml.org/type/{bool,null,int,float}), for files PyYAML writes and reads (shogun's inboxes). It
// differs from YAML 1.2's core schema where an agent's text would change meaning: `1e3`, `1.5e3` and
// `0o17` stay text (1.2 reads 1000, 1500, 15), `yes`/`on`/`off` are booleans, `1_000` and `1:20` are
// numbers (1000, 80). Timestamps stay text, as in the core schema. Pure; safe in the browser.
import { FAILSAFE_SCHEMA, Type } from "js-yaml";

const NULL = /^(?:~|null|Null|NULL|)$/;
const BOOL = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const INT = /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;
const FLOAT = /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

/** `1:20:30` → 4830 (base 60), for sexagesimal ints and floats. */
function sexagesimal(digits: string): number {
  return digits.split(":").reduce((sum, part) => sum * 60 + Number(part), 0);
}

function toInt(text: string): number {
  const sign = text.startsWith("-") ? -1 : 1;
  const digits = text.replace(/^[-+]/, "").replaceAll("_", "");
  if (digits.includes(":")) return sign * sexagesimal(digits);
  if (digits.startsWith("0b")) return sign * parseInt(digits.slice(2), 2);
  if (digits.startsWith("0x")) return sign * parseInt(digits.slice(2), 16);
  if (digits.length > 1 && digits.startsWith("0")) return sign * parseInt(digits.slice(1), 8);
  return sign * Number(digits);
}

function toFloat(text: string): number {
  const lower = text.toLowerCase();
  if (lower.endsWith(".nan")) return NaN;
  const sign = text.startsWith("-") ? -1 : 1;
  if (lower.endsWith(".inf")) return sign * Infinity;
  const digits = text.replace(/^[-+]/, "").replaceAll("_", "");
  return sign * (digits.includes(":") ? sexagesimal(digits) : Number(digits));
}

const scalar = (tag: string, pattern: RegExp, construct: (text: string) => unknown) =>
  new Type(`tag:yaml.org,2002:${tag}`, { kind: "scalar", resolve: (data: string | null) => pattern.test(data ?? ""), construct: (data: string | null) => construct(data ?? "") });

/** PyYAML's SafeLoader resolution of plain scalars, with its `<<` merge keys. */
export const PYYAML_SCHEMA = FAILSAFE_SCHEMA.extend({
  implicit: [
    scalar("null", NULL, () => null),
    scalar("bool", BOOL, (text) => /^(?:yes|true|on)$/i.test(text)),
    scalar("int", INT, toInt),
    scalar("float", FLOAT, toFloat),
    // js-yaml's loader merges a key of this tag (within its maxTotalMergeKeys).
    scalar("merge", /^<<$/, () => "<<"),
  ],
});

/** Whether PyYAML reads `text`, written plain, as something other than the string itself (`=` is its value tag, `<<` a merge key). */
export function pyyamlReadsAsOtherThanString(text: string): boolean {
  return NULL.test(text) || BOOL.test(text) || INT.test(text) || FLOAT.test(text) || text === "=" || text === "<<";
}
