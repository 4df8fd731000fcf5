// The agent an /agents/[agent] address names. An agent is whatever holds messages in its protocol's
// layout (an IGNITE queue, a shogun inbox, a KickLang channel such as "⫻command/dispatch"), so the
// name is not held to IGNITE's queue-name pattern: it must be one the journal knows. Pure.
import { MAX_AGENT_NAME } from "@/lib/model";

/**
 * The known agent the route segment names, or null. Next.js hands a page its param decoded; one
 * that arrives still encoded (a "%2F" kept by a proxy) is tried decoded second.
 */
export function agentAt(segment: string, isKnown: (agent: string) => boolean): string | null {
  if (segment === "" || segment.length > MAX_AGENT_NAME) return null;
  if (isKnown(segment)) return segment;
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return null;
  }
  return decoded !== segment && decoded !== "" && isKnown(decoded) ? decoded : null;
}
