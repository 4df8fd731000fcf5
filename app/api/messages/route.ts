import { NextResponse, type NextRequest } from "next/server";
import { listMessages } from "@/lib/journal";
import { errorResponse } from "@/lib/server/errors";
import { LIST_PARAM_CODES, listParamsSchema, parseOr400, searchParamsObject } from "@/lib/server/params";
import { guarded } from "@/lib/server/guard-response";

export const dynamic = "force-dynamic";

export const GET = guarded((request: NextRequest) => {
  try {
    const params = parseOr400(listParamsSchema, searchParamsObject(request.url), "bad_request", LIST_PARAM_CODES);
    return NextResponse.json(listMessages(params));
  } catch (err) {
    return errorResponse(err);
  }
});
