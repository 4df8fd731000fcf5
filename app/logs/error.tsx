"use client";

import { ErrorView } from "@/components/error-view";

export default function LogsError({ error, retry }: { error: unknown; retry: () => void }) {
  return <ErrorView title="The logs could not be loaded" error={error} retry={retry} />;
}
