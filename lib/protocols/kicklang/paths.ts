// Where a path sits in a KickLang tree: one append-only file per channel under
// `.kicklang/channels/` (protocol doc). Pure.
import { isDebris } from "@/lib/protocols/entry-kit";
import type { Place } from "@/lib/protocols/layout";
import { CHANNELS_DIR, pathToChannel } from "./channels";

/** A channel file's place: its "agent" is the channel's name. */
export function placeKicklang(relPath: string): Place | null {
  if (!relPath.startsWith(`${CHANNELS_DIR}/`)) return null;
  const rest = relPath.slice(CHANNELS_DIR.length + 1);
  if (isDebris(rest.split("/"))) return null;
  const channel = pathToChannel(rest);
  return channel === null ? null : { agent: channel, folder: "channel", role: "channel" };
}
