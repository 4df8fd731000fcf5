import { ApiError, errorResponse } from "@/lib/server/errors";
import { guarded } from "@/lib/server/guard-response";

export const dynamic = "force-dynamic";

// Any /api/ address no route serves: a JSON 404 in the API's error shape, behind the guard like
// every route (the proxy leaves /api/ alone, and Next's HTML 404 renders the layout's sources).
const unknown = guarded((request: Request) => {
  const { pathname } = new URL(request.url);
  return errorResponse(new ApiError(404, "not_found", `no API route at ${request.method} ${pathname}`));
});

export { unknown as DELETE, unknown as GET, unknown as PATCH, unknown as POST, unknown as PUT };
