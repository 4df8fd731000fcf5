import { z } from "zod";
import type { ComposeRequest, FieldErrors } from "@/lib/operations/compose-schema";
import { ApiClientError, toApiClientError } from "./fetcher";
import { keys } from "./keys";

/** A refused compose request; `fields` says what is wrong with each field (a 400 names them). */
export class ComposeApiError extends ApiClientError {
  constructor(status: number, code: string, message: string, readonly fields: FieldErrors) {
    super(status, code, message);
    this.name = "ComposeApiError";
  }
}

const sentSchema = z.object({ items: z.array(z.object({ key: z.string().nullable(), path: z.string() })) });
const previewSchema = z.object({
  items: z.array(z.object({ path: z.string(), content: z.string(), newQueue: z.boolean(), warning: z.string().nullable().default(null), notes: z.array(z.string()).optional() })),
});
const fieldsSchema = z.object({ error: z.object({ fields: z.record(z.string(), z.string()) }) });

export type SentItem = z.infer<typeof sentSchema>["items"][number];
export type PreviewFile = z.infer<typeof previewSchema>["items"][number];

async function post(body: string): Promise<unknown> {
  const res = await fetch(keys.compose, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body,
    cache: "no-store",
  });
  if (!res.ok) {
    const fields = fieldsSchema.safeParse(await res.clone().json().catch(() => null));
    const err = await toApiClientError(res);
    throw new ComposeApiError(err.status, err.code, err.message, fields.success ? fields.data.error.fields : {});
  }
  return res.json();
}

/** IGNITE v3's request, or another protocol's fields with the `source` that picks it. */
export type AnyComposeRequest = ComposeRequest | ({ source: string } & Record<string, unknown>);

/** Send: one file per recipient. Throws ComposeApiError (with `fields` on a 400). */
export async function postCompose(request: AnyComposeRequest): Promise<SentItem[]> {
  return sentSchema.parse(await post(JSON.stringify({ ...request, dryRun: undefined }))).items;
}

/** The files a send would write, built by the server without writing (`request` is JSON). */
export async function previewCompose(requestJson: string): Promise<PreviewFile[]> {
  const request = JSON.parse(requestJson) as AnyComposeRequest;
  return previewSchema.parse(await post(JSON.stringify({ ...request, dryRun: true }))).items;
}
