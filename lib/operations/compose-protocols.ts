import "server-only";
// Compose for the wave-2 protocols (issue 25 point 6): the request is parsed with the protocol's
// own schema (shared with the form), planned and written by the protocol's writer, in ingest's
// turn so the journal holds the new message when the answer names its key.
import path from "node:path";
import { writeThenIngest } from "@/lib/ingest";
import { getClientConfig, keyAtEntry, keyAtPath, listSources, recordAction } from "@/lib/journal";
import type { SourceInfo } from "@/lib/model";
import { planSend, sendListsOf } from "@/lib/protocols";
import { protocolComposeSchema } from "@/lib/protocols/compose-forms";
import type { SourceLists } from "@/lib/protocols/compose-spec";
import { fieldErrorsOf } from "@/lib/protocols/fields";
import { ApiError } from "@/lib/server/errors";
import { ComposeFieldsError, type ComposeResult } from "./compose";
import { hasOwnCompose } from "./compose-target";

/** The writers' own field names, as the request names them. */
const REQUEST_NAME: Record<string, string> = { workflowId: "workflow", confirmRoleRule: "confirmWarnings" };

/** A writer's 400 ("field: why") as the form's field errors; anything else as it is. */
function asFieldError(err: unknown): never {
  const m = err instanceof ApiError && err.status === 400 ? /^([A-Za-z]+): ([\s\S]*)$/.exec(err.message) : null;
  if (m?.[1] && m[2]) throw new ComposeFieldsError({ [REQUEST_NAME[m[1]] ?? m[1]]: m[2] });
  throw err;
}

/** The wave-2 source a request names, or null (IGNITE v3's compose takes the rest). */
export function protocolSourceOf(raw: unknown): SourceInfo | null {
  const id = (raw as { source?: unknown } | null)?.source;
  if (typeof id !== "string") return null;
  return listSources().find((s) => s.id === id && !hasOwnCompose(s)) ?? null;
}

const flag = (v: unknown) => v === undefined || typeof v === "boolean";

/** POST /api/compose for a wave-2 source: one message, as its protocol writes it. */
export async function composeForSource(raw: Record<string, unknown>, source: SourceInfo, origin: string): Promise<ComposeResult> {
  if (getClientConfig().readOnly) throw new ApiError(403, "read_only", "Mailroom runs read-only (MAILROOM_READONLY=1): nothing can be sent.");
  const { dryRun, confirmWarnings } = raw;
  // `source` picked the protocol; the rest are that protocol's fields (a `protocol` sent is overruled).
  const fields = Object.fromEntries(Object.entries(raw).filter(([k]) => !["source", "dryRun", "confirmWarnings"].includes(k)));
  const parsed = protocolComposeSchema.safeParse({ ...fields, protocol: source.protocol });
  const errors: Record<string, string> = parsed.success ? {} : fieldErrorsOf(parsed.error);
  if (!flag(dryRun)) errors.dryRun = "must be true or false";
  if (!flag(confirmWarnings)) errors.confirmWarnings = "must be true or false";
  if (!parsed.success || Object.keys(errors).length > 0) throw new ComposeFieldsError(errors);
  const p = await planSend(source.root, parsed.data, confirmWarnings === true).catch(asFieldError);
  if (dryRun === true) return { dryRun: true, items: [{ path: p.path, content: p.bytes, newQueue: false, warning: p.confirm, notes: p.notes }] };
  if (p.confirm && confirmWarnings !== true) {
    throw new ApiError(409, "unconfirmed_warning", `Nothing was written: ${p.confirm} Send with "confirmWarnings": true to write it anyway.`);
  }
  const locator = await writeThenIngest(p.run, [path.join(source.root, ...p.path.split("/"))]);
  const key = locator === "" ? keyAtPath(source.root, p.path) : keyAtEntry(source.id, p.path, locator);
  if (key) {
    recordAction(key, "composed", `Sent from Mailroom (${origin}) to ${p.path}`);
    if (p.confirm) recordAction(key, "warning confirmed", `${p.confirm} The sender confirmed it (${origin}).`);
  }
  return { dryRun: false, items: [{ key, path: p.path }] };
}

/** What a source's compose form suggests: its agents (a KickLang source's are its channels) and its workflow ids. */
export function composeListsOf(source: SourceInfo): Promise<SourceLists> {
  return sendListsOf(source);
}
