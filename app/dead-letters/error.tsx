"use client";

import { ErrorView } from "@/components/error-view";

export default function DeadLettersError({ error, retry }: { error: unknown; retry: () => void }) {
  return <ErrorView title="The dead letters could not be loaded" error={error} retry={retry} />;
}
