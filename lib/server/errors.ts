import "server-only";
import { NextResponse } from "next/server";
import type { ApiErrorBody } from "@/lib/model";

export type ApiErrorStatus = 400 | 403 | 404 | 409 | 413 | 500 | 503;

/** A failure with a place to land: the API's one error shape. */
export class ApiError extends Error {
  constructor(
    readonly status: ApiErrorStatus,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export function errorResponse(err: unknown): NextResponse<ApiErrorBody> {
  if (err instanceof ApiError) {
    return NextResponse.json({ error: { code: err.code, message: err.message } }, { status: err.status });
  }
  console.error("[mailroom] unexpected error", err);
  return NextResponse.json(
    { error: { code: "internal", message: "Mailroom hit an unexpected error; the server log has the details." } },
    { status: 500 },
  );
}
