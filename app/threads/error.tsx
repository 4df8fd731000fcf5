"use client";

import { ErrorView } from "@/components/error-view";

export default function ThreadsError({ error, retry }: { error: unknown; retry: () => void }) {
  return <ErrorView title="The threads could not be loaded" error={error} retry={retry} />;
}
