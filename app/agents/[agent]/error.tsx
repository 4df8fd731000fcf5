"use client";

import { ErrorView } from "@/components/error-view";

export default function AgentError({ error, retry }: { error: unknown; retry: () => void }) {
  return <ErrorView title="This agent's queue could not be loaded" error={error} retry={retry} />;
}
