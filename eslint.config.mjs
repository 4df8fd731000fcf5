import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import protocolBoundary from "./eslint-rules/protocol-boundary.mjs";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([".next/**", "fixtures/**", "node_modules/**", "test-results/**", "playwright-report/**", "next-env.d.ts", "bench-results/**"]),
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
    },
  },
  {
    plugins: { mailroom: { rules: { "protocol-boundary": protocolBoundary } } },
    // Exempt: tests check a protocol's insides directly; e2e/ (Playwright), scripts/ and the
    // lib/demo/ and lib/bench/ they run (tsx) run under plain Node, where the index's reader
    // throws on its `server-only` import, so they build IGNITE files from ignite/build itself.
    ignores: ["**/*.test.ts", "**/*.test.tsx", "e2e/**", "scripts/**", "lib/bench/**"],
    rules: { "mailroom/protocol-boundary": "error" },
  },
]);
