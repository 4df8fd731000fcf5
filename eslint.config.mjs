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
    // Exempt: what writes and checks a protocol's files as fixtures do. Tests check a protocol's
    // insides directly; e2e/ (Playwright) and the benchmark (lib/bench/, scripts/bench*.ts) write
    // their trees with each protocol's builders, and measure IGNITE's own load stage by stage.
    ignores: ["**/*.test.ts", "**/*.test.tsx", "e2e/**", "lib/bench/**", "scripts/bench*.ts"],
    rules: { "mailroom/protocol-boundary": "error" },
  },
]);
