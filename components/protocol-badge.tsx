"use client";
import { useVocabulary } from "@/lib/client/catalogs";
import type { Protocol } from "@/lib/model";
import { Badge } from "./ui/badge";

/**
 * Which protocol a message speaks, as text: a screen reader says "protocol IGNITE v2". Pages show
 * it only when the journal holds more than one protocol (else every row would say the same).
 */
export function ProtocolBadge({ protocol, className }: { protocol: Protocol; className?: string }) {
  const label = useVocabulary().catalogOf(protocol).label;
  return (
    <Badge title={`Protocol: ${label} (search: protocol:${protocol})`} className={className}>
      <span className="sr-only">protocol </span>
      {label}
    </Badge>
  );
}
