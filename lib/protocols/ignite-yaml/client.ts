// The pure part of IGNITE v2's read side, for code that runs where the index cannot be loaded
// (client components, ingest's worker threads) and for IGNITE v3, whose queue monitor converts a
// v2 message it finds in a v3 queue: until then, that file is read as the v2 message it is.
export { read } from "./read";
export { placeIgniteYaml } from "./paths";
