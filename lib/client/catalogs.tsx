"use client";
// Every protocol's words in the browser: the root layout reads the catalogs on the server, through
// the contract, and hands them down as plain data; client components read them with
// useVocabulary(). So no client bundle carries a protocol's own files.
import { createContext, useContext, useMemo, type ReactNode } from "react";
import type { ProtocolCatalog, Vocabulary } from "@/lib/protocols/types";
import { vocabularyOf } from "@/lib/protocols/vocabulary";

export type { Vocabulary };

const VocabularyContext = createContext<Vocabulary | null>(null);

export function CatalogsProvider({ catalogs, children }: { catalogs: readonly ProtocolCatalog[]; children: ReactNode }) {
  const vocabulary = useMemo(() => vocabularyOf(catalogs), [catalogs]);
  return <VocabularyContext value={vocabulary}>{children}</VocabularyContext>;
}

/** The protocols' words, as the server handed them to CatalogsProvider (app/layout.tsx). */
export function useVocabulary(): Vocabulary {
  const vocabulary = useContext(VocabularyContext);
  // Only a component rendered outside the root layout (a test without the provider) gets here.
  if (!vocabulary) throw new Error("useVocabulary() needs a <CatalogsProvider> above it (app/layout.tsx gives one)");
  return vocabulary;
}
