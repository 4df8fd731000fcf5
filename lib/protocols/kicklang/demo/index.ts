// KickLang's demo: dispatches answered across channels, one dispatch as history.
import { playedTeam, type ProtocolDemo } from "@/lib/demo/play";
import { KicklangTeam } from "./team";

export const KICKLANG_DEMO: ProtocolDemo = {
  folder: "kicklang",
  prepare: (workspace, opts) => playedTeam(workspace, opts, { first: 0, loops: 1 }, (options) => new KicklangTeam(options)),
};
