// A protocol is reached through its front door. Code outside lib/protocols/ speaks the contract
// (`@/lib/protocols`: the adapters and read sides with their capabilities, and the catalogs); it
// imports no protocol's file, nor lib/protocols/catalog.ts, which gathers them (the browser gets
// the catalogs as data). Inside lib/protocols/, a protocol's index and its catalog, client and demo faces may be
// imported, never another file inside it. So the core stays protocol-neutral and a protocol can
// reshape its insides without the app noticing. Relative paths count the same as `@/`. With
// `{ faces: true }` (tests, the Playwright suite, the bench), code outside lib/protocols/ may also
// use a protocol's index and faces, to check a protocol at its front door: still never its insides.
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const PROTOCOL_FILE = /^lib\/protocols\/([^/]+)\/(.+)$/;
const PROTOCOL_INDEX = /^lib\/protocols\/([^/]+)$/;
const EXTENSION = /\.(?:ts|tsx|js|mjs)$/;
/**
 * Files a protocol offers besides its index, to the rest of lib/protocols/. The index reads the
 * disk (server only), so the pure modules there need faces that do not: `catalog` (its statuses
 * and folders) and `client` (pure helpers such as a compose form's request schema); and `demo`, its
 * demo team (gathered by lib/protocols/demos.ts; IGNITE v2's team shares IGNITE v3's agents); and
 * `fixtures`, what its own tools write, for tests and the bench (gathered by lib/protocols/fixtures.ts).
 */
const PUBLIC_FACES = new Set(["index", "catalog", "client", "demo", "fixtures"]);
/** The module gathering every protocol's catalog: outside lib/protocols/, reached through the contract. */
const GATHERED_CATALOGS = "lib/protocols/catalog";

function repoPath(file) {
  return path.relative(ROOT, file).split(path.sep).join("/");
}

const folders = new Map();
/** `lib/protocols/<name>` is a protocol's folder (not a core module such as catalog.ts). */
function isProtocolFolder(name) {
  if (!folders.has(name)) folders.set(name, fs.statSync(path.join(ROOT, "lib", "protocols", name), { throwIfNoEntry: false })?.isDirectory() === true);
  return folders.get(name);
}

/** The protocol and file (its "index" for the folder itself) an import names, or null when it names no protocol. */
function protocolTarget(spec, importer) {
  let target;
  if (spec.startsWith("@/")) target = path.join(ROOT, spec.slice(2));
  else if (spec.startsWith("./") || spec.startsWith("../")) target = path.resolve(path.dirname(importer), spec);
  else return null;
  const rel = repoPath(target).replace(EXTENSION, "");
  if (rel === GATHERED_CATALOGS) return { protocol: "every", file: "catalog" };
  const index = PROTOCOL_INDEX.exec(rel);
  if (index && isProtocolFolder(index[1])) return { protocol: index[1], file: "index" };
  const m = PROTOCOL_FILE.exec(rel);
  return m ? { protocol: m[1], file: m[2] } : null;
}

const rule = {
  meta: {
    type: "problem",
    docs: { description: "Reach a protocol through the contract from outside lib/protocols/, and through its index (or catalog, client or demo face) inside it" },
    messages: {
      deep: 'Import the {{protocol}} protocol through "@/lib/protocols/{{protocol}}" (or its catalog, client or demo face), not "{{spec}}": files outside lib/protocols/{{protocol}}/ do not reach into it.',
      catalogs:
        'Outside lib/protocols/, reach the catalogs through the contract ("@/lib/protocols": CATALOGS, VOCABULARY, catalogOf), not "{{spec}}"; client code gets them from the server as data (useVocabulary).',
      contract:
        'Outside lib/protocols/, reach the {{protocol}} protocol through the contract ("@/lib/protocols": its adapter or read side), not "{{spec}}"; client code gets what it needs from the server as data.',
    },
    schema: [{ type: "object", properties: { faces: { type: "boolean" } }, additionalProperties: false }],
  },
  create(context) {
    const importer = context.filename;
    const here = repoPath(importer);
    const faces = context.options[0]?.faces === true;
    function check(source) {
      if (!source || source.type !== "Literal" || typeof source.value !== "string") return;
      const target = protocolTarget(source.value, importer);
      if (!target || here.startsWith(`lib/protocols/${target.protocol}/`)) return;
      if (target.protocol === "every" && here.startsWith("lib/protocols/")) return;
      const data = { protocol: target.protocol, spec: source.value };
      if (!here.startsWith("lib/protocols/") && !(faces && (target.protocol === "every" || PUBLIC_FACES.has(target.file)))) {
        context.report({ node: source, messageId: target.protocol === "every" ? "catalogs" : "contract", data });
      } else if (!PUBLIC_FACES.has(target.file)) {
        context.report({ node: source, messageId: "deep", data });
      }
    }
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

export default rule;
