import { NextResponse, type NextRequest } from "next/server";
import { listThreads } from "@/lib/journal";
import { errorResponse } from "@/lib/server/errors";
import { parseOr400, searchParamsObject } from "@/lib/server/params";
import { threadListParamsSchema } from "@/lib/threads/params";
import { guarded } from "@/lib/server/guard-response";

export const dynamic = "force-dynamic";

export const GET = guarded((request: NextRequest) => {
  try {
    const params = parseOr400(threadListParamsSchema, searchParamsObject(request.url));
    return NextResponse.json(listThreads(params));
  } catch (err) {
    return errorResponse(err);
  }
});
