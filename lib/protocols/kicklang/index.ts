// KickLang: the read side the core calls. Detection touches the disk (server only); placement,
// the channel ↔ path mapping, reading and statuses are pure.
import type { ProtocolReadSide } from "@/lib/protocols/layout";
import { detect, type KicklangLayout } from "./detect";
import { placeKicklang } from "./paths";
import { read } from "./read";
import { resolve, STATUSES } from "./statuses";

export const kicklangReadSide: ProtocolReadSide<KicklangLayout> = {
  protocol: "kicklang",
  detect,
  place: placeKicklang,
  appendOnly: () => true,
  // 1: a repeated id is kept apart as id@offset; journals read before merged the repeat into the first one's row.
  readerVersion: 1,
  read,
  statuses: STATUSES,
  resolve,
  // A request is answered by any envelope that correlates to it; a thread is its chain's root (statuses.ts).
  settlesByAnyReferrer: true,
};

export { detect, placeKicklang, read, resolve, STATUSES, type KicklangLayout };
export { CHANNELS_DIR, channelToPath, pathToChannel } from "./channels";
export { ANSWER_DUE_MS, correlationOf, REQUEST_TYPES, type ReadOptions } from "./read";
/** The protocol's writes (plan, then run), for the operations that send and change its messages. */
export * as writer from "./writer";
