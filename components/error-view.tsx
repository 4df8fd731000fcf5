"use client";

import { useEffect } from "react";
import { buttonClass } from "./ui/button";
import { Notice } from "./ui/notice";

/** The body of every error.tsx: what failed, and a way to try again. */
export function ErrorView({ title, error, retry }: { title: string; error: unknown; retry: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);

  const message = error instanceof Error ? error.message : String(error);
  const digest = error instanceof Error && "digest" in error && typeof error.digest === "string" ? error.digest : null;

  return (
    <Notice tone="error" role="alert" title={title}>
      <p className="break-words">{message || "An unexpected error occurred."}</p>
      {digest ? <p className="font-mono text-xs opacity-75">Error id {digest} (search the server log for it)</p> : null}
      <div className="pt-2">
        <button type="button" onClick={() => retry()} className={buttonClass("secondary")}>
          Try again
        </button>
      </div>
    </Notice>
  );
}
