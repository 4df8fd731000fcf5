// Every protocol's words in one place: which statuses and folders exist, how each status looks,
// and what the overview counts. The core and the UI reach it only through the contract
// (lib/protocols/index.ts); the browser gets the catalogs from the server (app/layout.tsx).
import "server-only";
import type { ProtocolCatalog } from "./catalog-types";
import { vocabularyOf, type Vocabulary } from "./vocabulary";
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

/** The lookups over every protocol's catalog (lib/protocols/vocabulary.ts). */
export const VOCABULARY: Vocabulary = vocabularyOf(CATALOGS);

export const { catalogOf, statusDefinition, inStatusOrder } = VOCABULARY;
export const ALL_STATUSES: readonly string[] = VOCABULARY.statuses;
export const ALL_FOLDERS: readonly string[] = VOCABULARY.folders;
