import { defineConfig } from "vitest/config";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      "@": root,
      // `server-only` throws outside a React Server bundle; under vitest the code is server code.
      "server-only": path.join(root, "lib/testing/server-only-noop.ts"),
    },
  },
  test: {
    include: ["**/*.test.ts", "**/*.test.tsx"],
    exclude: ["node_modules/**", ".next/**", "e2e/**"],
    environment: "node",
    pool: "forks",
    // Caps, not expectations: a test waits for conditions, and these only end one that hangs. A
    // 4,500-file bulk-scan test takes 7 s alone and took 43 s on a 2-core machine running a build.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    expect: { poll: { timeout: 60_000 } },
  },
});
