// The protocol boundary as the repository's own ESLint config applies it (eslint.config.mjs).
import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const RULE = "mailroom/protocol-boundary";

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

/** The boundary's messages for `code` as if it were the file at `file` (relative to the repository). */
async function boundary(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === RULE).map((m) => m.message);
}

describe("protocol boundary", () => {
  it("refuses a deep import of a protocol's file from the app, however it is written", async () => {
    expect(await boundary('import { read } from "@/lib/protocols/shogun/read";\nexport const r = read;\n', "app/x/page.tsx")).toEqual([
      'Outside lib/protocols/, reach the shogun protocol through the contract ("@/lib/protocols": its adapter or read side), not "@/lib/protocols/shogun/read"; client code gets what it needs from the server as data.',
    ]);
    expect(await boundary('export { isDashboard } from "@/lib/protocols/shogun/paths";\n', "lib/protocols/x.ts")).toEqual([
      'Import the shogun protocol through "@/lib/protocols/shogun" (or its catalog, client or demo face), not "@/lib/protocols/shogun/paths": files outside lib/protocols/shogun/ do not reach into it.',
    ]);
    expect(await boundary('export { read } from "../protocols/workflow/read";\n', "lib/journal/x.ts")).toHaveLength(1);
    expect(await boundary('export * from "./kicklang/statuses.ts";\n', "lib/protocols/x.ts")).toHaveLength(1);
    expect(await boundary('export const m = () => import("@/lib/protocols/ignite/build");\n', "components/x.tsx")).toHaveLength(1);
  });

  it("refuses one protocol reaching into another", async () => {
    expect(await boundary('export { isoWithOffset } from "@/lib/protocols/ignite/build";\n', "lib/protocols/ignite-yaml/x.ts")).toHaveLength(1);
  });

  it("lets the rest of lib/protocols/ use a protocol's index, its catalog and client faces", async () => {
    const code = [
      'export { shogunReadSide } from "@/lib/protocols/shogun";',
      'export { SHOGUN_CATALOG } from "@/lib/protocols/shogun/catalog";',
      'export { templateFor } from "@/lib/protocols/ignite/client";',
      'export { writer } from "./kicklang/index";',
      'export { statusDefinition } from "@/lib/protocols/catalog";',
    ].join("\n");
    expect(await boundary(`${code}\n`, "lib/protocols/x.ts")).toEqual([]);
    expect(await boundary('export { isoWithOffset } from "@/lib/protocols/ignite";\n', "lib/protocols/ignite-yaml/x.ts")).toEqual([]);
  });

  it("lets code outside lib/protocols/ use the contract and the core modules", async () => {
    const code = [
      'export { adapterFor, statusDefinition } from "@/lib/protocols";',
      'export type { ProtocolAdapter } from "@/lib/protocols/types";',
      'export type { Entry } from "../protocols/entries";',
    ].join("\n");
    expect(await boundary(`${code}\n`, "lib/journal/x.ts")).toEqual([]);
  });

  it("refuses a protocol's catalog, and the module gathering them, outside lib/protocols/: the contract hands them on", async () => {
    for (const spec of ["@/lib/protocols/shogun/catalog", "@/lib/protocols/catalog", "../protocols/catalog"]) {
      const found = await boundary(`import { x } from "${spec}";\n`, "lib/journal/x.ts");
      expect(found, spec).toHaveLength(1);
      expect(found[0], spec).toMatch(/through the contract/);
    }
    // Inside lib/protocols/ the gathering module may be used.
    expect(await boundary('import { CATALOGS } from "./catalog";\n', "lib/protocols/index.ts")).toEqual([]);
  });

  it("refuses a protocol's index or client face outside lib/protocols/, however it is written", async () => {
    const imports = [
      'import { planReply } from "@/lib/protocols/ignite";',
      'import { templateFor } from "@/lib/protocols/ignite/client";',
      'import { findIgniteLayout } from "@/lib/protocols/ignite/index";',
      'import { writer } from "@/lib/protocols/kicklang/index.ts";',
      'import type { ReplyPlan } from "../protocols/ignite/client";',
      'import { shogunWarning } from "../../lib/protocols/shogun/client";',
    ];
    for (const line of imports) {
      const [message] = await boundary(`${line}\n`, line.includes("../../") ? "app/compose/page.tsx" : "lib/operations/x.ts");
      expect(message, line).toMatch(/^Outside lib\/protocols\/, reach the (ignite|kicklang|shogun) protocol through the contract/);
    }
    expect(await boundary('export const m = () => import("@/lib/protocols/workflow");\n', "components/x.tsx")).toHaveLength(1);
    expect(await boundary('import { writer } from "@/lib/protocols/shogun";\n', "lib/client/x.ts")).toHaveLength(1);
  });

  it("lets a protocol import its own files", async () => {
    const deep = 'export { read } from "@/lib/protocols/shogun/read";\n';
    expect(await boundary('export { read } from "./read";\n', "lib/protocols/shogun/x.ts")).toEqual([]);
    expect(await boundary(deep, "lib/protocols/shogun/deeper/x.ts")).toEqual([]);
  });

  it("lets tests, e2e and the benchmark use a protocol's index and faces (its fixtures among them), never its insides", async () => {
    const deep = 'export { read } from "@/lib/protocols/shogun/read";\n';
    const faces = [
      'export { read } from "@/lib/protocols/shogun";',
      'export { SHOGUN_CATALOG } from "@/lib/protocols/shogun/catalog";',
      'export { ignite } from "@/lib/protocols/fixtures";',
      'export { CATALOGS } from "@/lib/protocols/catalog";',
    ].join("\n");
    for (const file of ["app/x.test.ts", "components/x.test.tsx", "e2e/x.spec.ts", "scripts/bench-x.ts", "lib/bench/x.ts"]) {
      expect(await boundary(deep, file), file).toHaveLength(1);
      expect(await boundary(`${faces}\n`, file), file).toEqual([]);
    }
    expect(await boundary('export { buildMessage } from "../lib/protocols/ignite/build";\n', "e2e/x.spec.ts")).toHaveLength(1);
    expect(await boundary('export { buildMessage } from "./ignite/fixtures";\n', "lib/protocols/fixtures.ts")).toEqual([]);
    // The demo's entry point and the server's are product code.
    for (const file of ["scripts/demo.ts", "scripts/serve.mjs"]) expect(await boundary(deep, file), file).toHaveLength(1);
  });

  it("holds the demo to it: a protocol's team is in its folder, behind its demo face, gathered by lib/protocols/demos.ts", async () => {
    expect(await boundary('export { ShogunTeam } from "@/lib/protocols/shogun/demo/team";\n', "lib/demo/teams.ts")).toHaveLength(1);
    expect(await boundary('export { SHOGUN_DEMO } from "@/lib/protocols/shogun/demo";\n', "lib/demo/teams.ts")).toHaveLength(1);
    expect(await boundary('export { DEMOS } from "@/lib/protocols/demos";\n', "lib/demo/teams.ts")).toEqual([]);
    expect(await boundary('export { Team } from "@/lib/protocols/ignite/demo";\n', "lib/protocols/ignite-yaml/demo/team.ts")).toEqual([]);
    expect(await boundary('export { Team } from "@/lib/protocols/ignite/demo/agents";\n', "lib/protocols/ignite-yaml/demo/team.ts")).toHaveLength(1);
  });
});
