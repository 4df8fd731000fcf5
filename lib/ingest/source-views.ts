import "server-only";
// What a source says about itself beyond its messages (liveness, logs, documents), bound to its
// root: from an IGNITE v3 reader or from a wave-2 read side and its layout, alike to the caller.
import type { Protocol, SourceHealth } from "@/lib/model";
import type { LogFile, LogSlice } from "@/lib/protocols";
import type { SourceDocument } from "@/lib/protocols/layout";
import type { EntrySource } from "./entry-ingest";
import type { Source } from "./sources";

export interface SourceViews {
  id: string;
  protocol: Protocol;
  root: string;
  health?(nowMs: number): Promise<SourceHealth>;
  logs?(): Promise<LogFile[]>;
  readLog?(name: string, from: number, maxBytes: number): Promise<LogSlice | null>;
  documents?(): Promise<SourceDocument[]>;
}

function fromEntries({ id, protocol, root, layout, side }: EntrySource): SourceViews {
  return {
    id, protocol, root,
    health: side.health?.bind(side, layout),
    logs: side.logs?.bind(side, layout),
    readLog: side.readLog?.bind(side, layout),
    documents: side.documents?.bind(side, layout),
  };
}

/** The views of each source that can be read (a source with an error has none). */
export function viewsOf(sources: readonly Source[]): SourceViews[] {
  return sources.flatMap((s): SourceViews[] => {
    const r = s.reader;
    if (r) return [{ id: s.id, protocol: s.protocol, root: s.root, health: r.health?.bind(r), logs: r.logs?.bind(r), readLog: r.readLog?.bind(r) }];
    return s.entries ? [fromEntries(s.entries)] : [];
  });
}
