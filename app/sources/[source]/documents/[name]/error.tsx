"use client";

import { ErrorView } from "@/components/error-view";

export default function DocumentError({ error, retry }: { error: unknown; retry: () => void }) {
  return <ErrorView title="This document could not be read" error={error} retry={retry} />;
}
