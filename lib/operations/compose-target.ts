import "server-only";
import type { SourceInfo } from "@/lib/model";
import { adapterFor } from "@/lib/protocols";
import type { ComposeTarget } from "@/lib/protocols/types";

/** A source whose protocol has its own compose (IGNITE v3), as opposed to a wave-2 protocol's form. */
export function hasOwnCompose(source: Pick<SourceInfo, "protocol">): boolean {
  return adapterFor(source.protocol)?.compose !== undefined;
}

type Picked = { source: SourceInfo; error?: undefined } | { source?: undefined; error: string };

/** The source named in the request, or the only IGNITE source when none is named. */
export function pickSource(requested: string | null, sources: readonly SourceInfo[]): Picked {
  const ignite = sources.filter(hasOwnCompose);
  if (requested !== null) {
    const source = ignite.find((s) => s.id === requested);
    if (source) return { source };
    const known = ignite.map((s) => s.id).join(", ") || "none";
    return { error: `"${requested}" is not an IGNITE workspace of this Mailroom (known: ${known})` };
  }
  const [only, ...others] = ignite;
  if (!only) return { error: "no IGNITE workspace is configured (MAILROOM_ROOT) to write into" };
  if (others.length > 0) return { error: `several IGNITE workspaces are configured; name one (${ignite.map((s) => s.id).join(", ")})` };
  return { source: only };
}

/** The source ready to be written to, through its protocol's own compose. */
export async function openTarget(source: SourceInfo): Promise<{ target?: ComposeTarget; error?: string }> {
  const target = await adapterFor(source.protocol)?.compose?.open(source.root);
  if (!target) return { error: `${source.id} has no readable queue folder right now (${source.error ?? "is the workspace there?"})` };
  return { target };
}
