// A worker thread run from TypeScript sources (tests, the demo, the bench) rather than the built
// server: loads worker.ts through tsx (workers.ts starts it).
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: tsx's require hook is what loads worker.ts here */
require("tsx/cjs");
require("./worker.ts");
