"use client";

import { ErrorView } from "@/components/error-view";

/** Any page without a landing of its own (each section has one; this catches the rest). */
export default function PageError({ error, retry }: { error: unknown; retry: () => void }) {
  return <ErrorView title="This page could not be loaded" error={error} retry={retry} />;
}
