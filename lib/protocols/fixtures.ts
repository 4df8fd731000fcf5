// The protocols' fixtures, for tests, the Playwright suite and the bench: each protocol's own file
// builders and formats, by protocol, so nothing outside lib/protocols/ reaches into a protocol's
// folder to write or check its files. Pure (nothing server-only); the running app never imports it.
export * as ignite from "./ignite/fixtures";
