"use client";

import { ErrorView } from "@/components/error-view";

export default function MessagesError({ error, retry }: { error: unknown; retry: () => void }) {
  return <ErrorView title="The messages could not be loaded" error={error} retry={retry} />;
}
