"use client";

import { ErrorView } from "@/components/error-view";

export default function OverviewError({ error, retry }: { error: unknown; retry: () => void }) {
  return <ErrorView title="The overview could not be loaded" error={error} retry={retry} />;
}
