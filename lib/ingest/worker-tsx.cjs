// A worker thread run from TypeScript sources (tests, the demo, the bench) rather than the built
// server: loads worker.ts (or the entry workerData names, e.g. warm-worker.ts) through tsx.
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: tsx's require hook is what loads the entry here */
require("tsx/cjs");
const { workerData } = require("node:worker_threads");
require(workerData?.tsxEntry ?? "./worker.ts");
