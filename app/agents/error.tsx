"use client";

import { ErrorView } from "@/components/error-view";

export default function AgentsError({ error, retry }: { error: unknown; retry: () => void }) {
  return <ErrorView title="The agents could not be loaded" error={error} retry={retry} />;
}
