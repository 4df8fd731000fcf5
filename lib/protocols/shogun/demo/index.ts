// shogun's demo: the shogun, the karo and the ashigaru passing commands, tasks and reports, with two
// commands as history.
import { playedTeam, type ProtocolDemo } from "@/lib/demo/play";
import { ShogunTeam } from "./team";

export const SHOGUN_DEMO: ProtocolDemo = {
  folder: "shogun",
  prepare: (workspace, opts) => playedTeam(workspace, opts, { first: 0, loops: 2 }, (options) => new ShogunTeam(options)),
};
