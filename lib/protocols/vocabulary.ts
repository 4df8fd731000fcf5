// Lookups over a list of protocol catalogs: a protocol's catalog, how a status looks, the order
// lists show statuses in. It imports no protocol: the server builds one over every protocol's
// catalog (lib/protocols/catalog.ts), and the browser over the same catalogs as the server handed
// them down (lib/client/catalogs.tsx), so both sides word things alike.
import type { Protocol } from "@/lib/model";
import type { ProtocolCatalog } from "./catalog-types";
import type { StatusDefinition } from "./entries";

export interface Vocabulary {
  /** The catalogs, in the order given (IGNITE v3 first: the order lists show statuses in). */
  catalogs: readonly ProtocolCatalog[];
  /** Every status word any protocol uses, each once, in catalog order (the first catalog's own order first). */
  statuses: readonly string[];
  /** Every folder word any protocol uses, each once, in catalog order. */
  folders: readonly string[];
  catalogOf(protocol: Protocol): ProtocolCatalog;
  /**
   * How to show a status: the protocol's own definition when it has the word, else the first
   * protocol's that does, else a plain one naming the word (a journal written by a newer Mailroom,
   * or a file's own word a protocol passes through): never throws. An unknown word counts as open:
   * nothing says it is settled.
   */
  statusDefinition(status: string, protocol?: Protocol): StatusDefinition;
  /**
   * Status words in `statuses` order, each once, then any word no protocol defines, alphabetically:
   * lists of counts show every status a message has, known or not.
   */
  inStatusOrder(words: Iterable<string>): string[];
  /** The statuses dead letters carry (each catalog's deadLetterStatus), each once. */
  deadLetterStatuses: readonly string[];
  /** Where the protocols keep their dead letters (each catalog's deadLetterPlace), each once. */
  deadLetterPlaces: readonly string[];
  /** Whether `status` is the one a dead letter carries: its protocol's, or without one, any protocol's. */
  isDeadLetterStatus(status: string, protocol?: Protocol): boolean;
  /** Whether a message in `status` waits for a retry (catalog retryWaits): its protocol's, or without one, any protocol's. */
  waitsForRetry(status: string, protocol?: Protocol): boolean;
}

function unique(words: Iterable<string>): readonly string[] {
  return [...new Set(words)];
}

export function vocabularyOf(catalogs: readonly ProtocolCatalog[]): Vocabulary {
  const statuses = unique(catalogs.flatMap((c) => c.statuses.map((s) => s.id)));
  const firstDefinition = new Map<string, StatusDefinition>();
  for (const c of catalogs) for (const s of c.statuses) if (!firstDefinition.has(s.id)) firstDefinition.set(s.id, s);
  const rank = new Map(statuses.map((s, i) => [s, i]));
  const rankOf = (s: string) => rank.get(s) ?? statuses.length;
  const deadLetterStatuses = unique(catalogs.flatMap((c) => (c.deadLetterStatus === undefined ? [] : [c.deadLetterStatus])));
  const retryWaits = unique(catalogs.flatMap((c) => c.retryWaits ?? []));
  const own = (protocol: Protocol) => catalogs.find((c) => c.protocol === protocol);
  return {
    catalogs,
    statuses,
    folders: unique(catalogs.flatMap((c) => c.folders)),
    catalogOf(protocol) {
      const found = catalogs.find((c) => c.protocol === protocol);
      // Every Protocol has a catalog (catalog.test.ts holds it); this only guards a bad cast.
      if (!found) throw new Error(`no catalog for protocol "${protocol}"`);
      return found;
    },
    statusDefinition(status, protocol) {
      const defined = protocol ? own(protocol)?.statuses.find((s) => s.id === status) : undefined;
      return defined ?? firstDefinition.get(status) ?? { id: status, label: status, state: "open", tone: "neutral", help: `"${status}": a status Mailroom has no description of` };
    },
    inStatusOrder(words) {
      return [...new Set(words)].sort((a, b) => rankOf(a) - rankOf(b) || (a < b ? -1 : a > b ? 1 : 0));
    },
    deadLetterStatuses,
    deadLetterPlaces: unique(catalogs.flatMap((c) => (c.deadLetterPlace === undefined ? [] : [c.deadLetterPlace]))),
    isDeadLetterStatus(status, protocol) {
      return protocol ? own(protocol)?.deadLetterStatus === status : deadLetterStatuses.includes(status);
    },
    waitsForRetry(status, protocol) {
      return (protocol ? (own(protocol)?.retryWaits ?? []) : retryWaits).includes(status);
    },
  };
}
