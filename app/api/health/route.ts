import { NextResponse } from "next/server";
import { getJournalProblem } from "@/lib/journal";
import { VERSION } from "@/lib/server/version";
import { errorResponse } from "@/lib/server/errors";
import { guarded } from "@/lib/server/guard-response";

export const dynamic = "force-dynamic";

/** `ok` is false while the journal has a problem; `journal` then says which file, what is wrong and what to do. */
export const GET = guarded(() => {
  try {
    const journal = getJournalProblem();
    return NextResponse.json({ ok: journal === null, version: VERSION, journal });
  } catch (err) {
    return errorResponse(err);
  }
});
