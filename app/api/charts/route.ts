import { NextResponse, type NextRequest } from "next/server";
import { getChartsOrOne } from "@/lib/journal";
import { parseChartParams } from "@/lib/server/chart-params";
import { errorResponse } from "@/lib/server/errors";
import { searchParamsObject } from "@/lib/server/params";
import { guarded } from "@/lib/server/guard-response";

export const dynamic = "force-dynamic";

/** The charts over a range (`range=1h`, or `from`/`to`), of one agent (`agent=`), all or one (`chart=`). */
export const GET = guarded((request: NextRequest) => {
  try {
    const { window, agent, chart } = parseChartParams(searchParamsObject(request.url), Date.now());
    return NextResponse.json(getChartsOrOne({ window, agent }, chart));
  } catch (err) {
    return errorResponse(err);
  }
});
