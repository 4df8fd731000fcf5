// Stands in for `server-only` under vitest, where every module is server code.
export {};
