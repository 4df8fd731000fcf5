import "server-only";
import type { SourceInfo } from "@/lib/model";
import { adapterFor, CATALOGS } from "@/lib/protocols";
import type { ComposeTarget } from "@/lib/protocols/types";

/** A source whose protocol has its own compose (its adapter's), as opposed to a protocol's form (compose-protocols.ts). */
export function hasOwnCompose(source: Pick<SourceInfo, "protocol">): boolean {
  return adapterFor(source.protocol)?.compose !== undefined;
}

type Picked = { source: SourceInfo; error?: undefined } | { source?: undefined; error: string };

/** What such a source is called in an error: "<label> workspace", by the protocols that have their own compose. */
function kindOfTarget(): string {
  const labels = CATALOGS.filter((c) => adapterFor(c.protocol)?.compose !== undefined).map((c) => c.label);
  return `${labels.join(" or ") || "writable"} workspace`;
}

/** The source named in the request, or the only source with its own compose when none is named. */
export function pickSource(requested: string | null, sources: readonly SourceInfo[]): Picked {
  const writable = sources.filter(hasOwnCompose);
  const kind = kindOfTarget();
  if (requested !== null) {
    const source = writable.find((s) => s.id === requested);
    if (source) return { source };
    const known = writable.map((s) => s.id).join(", ") || "none";
    return { error: `"${requested}" is not one of this Mailroom's ${kind}s (known: ${known})` };
  }
  const [only, ...others] = writable;
  if (!only) return { error: `no ${kind} is configured (MAILROOM_ROOT) to write into` };
  if (others.length > 0) return { error: `several ${kind}s are configured; name one (${writable.map((s) => s.id).join(", ")})` };
  return { source: only };
}

/** The source ready to be written to, through its protocol's own compose. */
export async function openTarget(source: SourceInfo): Promise<{ target?: ComposeTarget; error?: string }> {
  const target = await adapterFor(source.protocol)?.compose?.open(source.root);
  if (!target) return { error: `${source.id} has no readable queue folder right now (${source.error ?? "is the workspace there?"})` };
  return { target };
}
