"use client";

import { ErrorView } from "@/components/error-view";

export default function PresentError({ error, retry }: { error: unknown; retry: () => void }) {
  return <ErrorView title="The presenter view could not be loaded" error={error} retry={retry} />;
}
