// Every protocol's words in one place, for the core and the UI: which statuses and folders exist,
// how each status looks, and what the overview counts. Pure: safe for client components (it
// gathers each protocol's catalog.ts, never its index, which reads the disk).
import type { Protocol } from "@/lib/model";
import type { StatusDefinition } from "./entries";
import type { ProtocolCatalog } from "./catalog-types";
import { IGNITE_CATALOG } from "./ignite/catalog";
import { IGNITE_YAML_CATALOG } from "./ignite-yaml/catalog";
import { KICKLANG_CATALOG } from "./kicklang/catalog";
import { SHOGUN_CATALOG } from "./shogun/catalog";
import { WORKFLOW_CATALOG } from "./workflow/catalog";

export type { ProtocolCatalog, StatusTone } from "./catalog-types";
export { STATUS_TONES } from "./catalog-types";
export type { StatusDefinition } from "./entries";

/** IGNITE v3 first: the order lists (totals, a thread's statuses) show statuses in. */
export const CATALOGS: readonly ProtocolCatalog[] = [IGNITE_CATALOG, IGNITE_YAML_CATALOG, SHOGUN_CATALOG, WORKFLOW_CATALOG, KICKLANG_CATALOG];

export function catalogOf(protocol: Protocol): ProtocolCatalog {
  const found = CATALOGS.find((c) => c.protocol === protocol);
  // Every Protocol has a catalog (catalog.test.ts holds it); this only guards a bad cast.
  if (!found) throw new Error(`no catalog for protocol "${protocol}"`);
  return found;
}

function unique(words: Iterable<string>): readonly string[] {
  return [...new Set(words)];
}

/** Every status word any protocol uses, each once, in CATALOGS order (IGNITE v3's own order first). */
export const ALL_STATUSES: readonly string[] = unique(CATALOGS.flatMap((c) => c.statuses.map((s) => s.id)));

/** Every folder word any protocol uses, each once, in CATALOGS order. */
export const ALL_FOLDERS: readonly string[] = unique(CATALOGS.flatMap((c) => c.folders));

const FIRST_DEFINITION = new Map<string, StatusDefinition>();
for (const c of CATALOGS) for (const s of c.statuses) if (!FIRST_DEFINITION.has(s.id)) FIRST_DEFINITION.set(s.id, s);

/**
 * How to show a status: the protocol's own definition when it has the word, else the first
 * protocol's that does, else a plain one naming the word (a journal written by a newer Mailroom,
 * or a file's own word a protocol passes through): never throws. An unknown word counts as open:
 * nothing says it is settled.
 */
export function statusDefinition(status: string, protocol?: Protocol): StatusDefinition {
  const own = protocol ? CATALOGS.find((c) => c.protocol === protocol)?.statuses.find((s) => s.id === status) : undefined;
  return own ?? FIRST_DEFINITION.get(status) ?? { id: status, label: status, state: "open", tone: "neutral", help: `"${status}": a status Mailroom has no description of` };
}

const STATUS_RANK = new Map(ALL_STATUSES.map((s, i) => [s, i]));

/**
 * Status words in ALL_STATUSES order, each once, then any word no protocol defines, alphabetically:
 * lists of counts show every status a message has, known or not.
 */
export function inStatusOrder(words: Iterable<string>): string[] {
  const rank = (s: string) => STATUS_RANK.get(s) ?? ALL_STATUSES.length;
  return [...new Set(words)].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}
