// Every wave-2 protocol's compose form, and the one request schema the server parses with: a
// union on `protocol` (the server sets it from the source), each branch from its protocol's
// client face. Pure: the compose form imports it too.
import { z } from "zod";
import type { Protocol } from "@/lib/model";
import type { ComposeFormSpec } from "./compose-spec";
import { IGNITE_YAML_FORM, igniteYamlComposeSchema } from "./ignite-yaml/client";
import { KICKLANG_FORM, kicklangComposeSchema } from "./kicklang/client";
import { SHOGUN_FORM, shogunComposeSchema } from "./shogun/client";
import { WORKFLOW_FORM, workflowComposeSchema } from "./workflow/client";

export const protocolComposeSchema = z.discriminatedUnion("protocol", [igniteYamlComposeSchema, shogunComposeSchema, workflowComposeSchema, kicklangComposeSchema]);
export type ProtocolComposeRequest = z.infer<typeof protocolComposeSchema>;

const FORMS: Partial<Record<Protocol, ComposeFormSpec>> = {
  "ignite-yaml": IGNITE_YAML_FORM,
  shogun: SHOGUN_FORM,
  workflow: WORKFLOW_FORM,
  kicklang: KICKLANG_FORM,
};

/** The compose form of a wave-2 protocol; null for IGNITE v3, whose form is its own. */
export function composeFormOf(protocol: Protocol): ComposeFormSpec | null {
  return FORMS[protocol] ?? null;
}
