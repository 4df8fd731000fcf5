import "server-only";
import { NextResponse } from "next/server";
import { describeFault, journalFaultKind, reportJournalFault } from "@/lib/journal/faults";
import type { ApiErrorBody } from "@/lib/model";
import { ApiError } from "./api-error";
import { getConfig } from "./config";

export { ApiError, type ApiErrorStatus } from "./api-error";

export function errorResponse(err: unknown): NextResponse<ApiErrorBody> {
  if (err instanceof ApiError) {
    return NextResponse.json({ error: { code: err.code, message: err.message } }, { status: err.status });
  }
  // A journal that cannot be read or written (full disk, read-only, damaged) is no bug: say which and what to do.
  const fault = journalFaultKind(err);
  if (fault) {
    const file = getConfig().journalFile;
    // Reported, so every page says so and ingest retries (or checks a damaged journal).
    reportJournalFault(file, err);
    const problem = describeFault(fault, file, err);
    return NextResponse.json({ error: { code: problem.code, message: `${problem.message} ${problem.action}` } }, { status: 503 });
  }
  console.error("[mailroom] unexpected error", err);
  return NextResponse.json(
    { error: { code: "internal", message: "Mailroom hit an unexpected error; the server log has the details." } },
    { status: 500 },
  );
}
