import { useVocabulary } from "@/lib/client/catalogs";
import type { AgentStats, Protocol } from "@/lib/model";
import type { ProtocolCatalog } from "@/lib/protocols/types";
import { ProtocolAgentsTable } from "./protocol-agents-table";

/** The one table's name when a single protocol is present (pages and tests find it by it). */
const ONLY_CAPTION = "Agents and their message counts";

interface Section {
  protocol: Protocol;
  label: string;
  sources: string[];
  agents: AgentStats[];
}

/** The agents by protocol, in catalog order, each with the sources it came from. */
function sectionsOf(agents: AgentStats[], catalogs: readonly ProtocolCatalog[]): Section[] {
  return catalogs.flatMap((c) => {
    const theirs = agents.filter((a) => a.protocol === c.protocol);
    if (theirs.length === 0) return [];
    return [{ protocol: c.protocol, label: c.label, sources: [...new Set(theirs.map((a) => a.source))].sort(), agents: theirs }];
  });
}

/**
 * One table per protocol present, each with its own status columns. A protocol alone is one table
 * under no heading; beside others each table is headed by the protocol's name and its sources,
 * since the columns differ.
 */
export function AgentsTable({ agents }: { agents: AgentStats[] }) {
  const sections = sectionsOf(agents, useVocabulary().catalogs);
  if (agents.length === 0) {
    return <p className="px-4 py-8 text-center text-sm text-zinc-500 dark:text-zinc-400">No agents found yet. Agents appear when their queue folders do.</p>;
  }
  const only = sections.length === 1 ? sections[0] : undefined;
  if (only) return <ProtocolAgentsTable protocol={only.protocol} agents={only.agents} caption={ONLY_CAPTION} />;
  return (
    <div className="divide-y divide-zinc-200 dark:divide-zinc-800">
      {sections.map((s) => (
        <section key={s.protocol} aria-labelledby={`agents-${s.protocol}`}>
          <h3 id={`agents-${s.protocol}`} className="px-4 pt-3 pb-1 text-sm font-semibold text-zinc-800 dark:text-zinc-200">
            {s.label}
            <span className="ml-2 font-mono text-xs font-normal text-zinc-500 dark:text-zinc-400">{s.sources.join(", ")}</span>
          </h3>
          <ProtocolAgentsTable
            protocol={s.protocol}
            agents={s.agents}
            caption={`${s.label} agents and their counts by status`}
          />
        </section>
      ))}
    </div>
  );
}
