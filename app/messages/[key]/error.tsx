"use client";

import { ErrorView } from "@/components/error-view";

export default function MessageError({ error, retry }: { error: unknown; retry: () => void }) {
  return <ErrorView title="This message could not be loaded" error={error} retry={retry} />;
}
