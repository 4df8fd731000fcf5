// A worker thread run from TypeScript sources (tests, the demo, the bench) rather than the built
// server: loads worker.ts through tsx. Its path comes as workerData (workers.ts).
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: tsx's require hook is what loads worker.ts here */
require("tsx/cjs");
require(require("node:worker_threads").workerData.source);
