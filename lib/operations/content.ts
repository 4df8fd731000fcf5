import "server-only";
import { ApiError } from "@/lib/server/errors";
import { bodyProblem } from "./compose-schema";

/**
 * An edited body must be one compose would send (the same rule: LF line endings only, YAML the
 * tools can read): a 400 that says what is wrong, with the line and column of a YAML error.
 */
export function assertSendableBody(body: string): void {
  const problem = bodyProblem(body);
  if (problem) throw new ApiError(400, "bad_body", `body: ${problem}`);
}
