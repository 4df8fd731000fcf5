"use client";

import { ErrorView } from "@/components/error-view";

export default function ComposeError({ error, retry }: { error: unknown; retry: () => void }) {
  return <ErrorView title="Compose could not be loaded" error={error} retry={retry} />;
}
