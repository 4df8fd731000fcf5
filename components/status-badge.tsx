"use client";
import { useVocabulary, type Vocabulary } from "@/lib/client/catalogs";
import type { Protocol, Status } from "@/lib/model";
import { Badge, type BadgeTone } from "./ui/badge";

const DOT: Record<BadgeTone, string> = {
  neutral: "bg-zinc-400",
  sky: "bg-sky-500",
  blue: "bg-blue-500",
  amber: "bg-amber-500",
  violet: "bg-violet-500",
  emerald: "bg-emerald-500",
  teal: "bg-teal-500",
  red: "bg-red-500",
  orange: "bg-orange-500",
  fuchsia: "bg-fuchsia-500",
};

/** A status's colour, as its protocol (or, without one, the first protocol using the word) defines it. */
export function statusTone(words: Vocabulary, status: Status, protocol?: Protocol): BadgeTone {
  return words.statusDefinition(status, protocol).tone;
}

/** A message status, coloured; `raw` is the file's own wording when it differs (e.g. dead_letter). */
export function StatusBadge({ status, raw, protocol }: { status: Status; raw?: string | null; protocol?: Protocol }) {
  const { tone, help } = useVocabulary().statusDefinition(status, protocol);
  const title = raw && raw !== status ? `${help} (file says "${raw}")` : help;
  return (
    <Badge tone={tone} title={title}>
      <span aria-hidden className={`size-1.5 rounded-full ${DOT[tone]}`} />
      {status}
    </Badge>
  );
}
