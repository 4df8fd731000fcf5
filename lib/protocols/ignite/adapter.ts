import "server-only";
// IGNITE v3 whole, as the contract offers it: the read side (reader.ts), its own compose, and the
// operator's actions on a message's file.
import type { ProtocolAdapter } from "@/lib/protocols/types";
import { igniteFileActions } from "./action-run";
import { igniteCompose } from "./compose";
import { igniteAdapter as readSide } from "./reader";

export const igniteAdapter: ProtocolAdapter = { ...readSide, compose: igniteCompose, fileActions: igniteFileActions };
