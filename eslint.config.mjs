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
    rules: { "mailroom/protocol-boundary": "error" },
  },
  {
    // Tests, e2e/ (Playwright) and the benchmark check a protocol at its front door (its index and
    // faces) and write their trees with its fixtures face (lib/protocols/fixtures.ts): never its insides.
    files: ["**/*.test.ts", "**/*.test.tsx", "e2e/**", "lib/bench/**", "scripts/bench*.ts"],
    rules: { "mailroom/protocol-boundary": ["error", { faces: true }] },
  },
]);
