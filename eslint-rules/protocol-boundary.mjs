// A protocol is reached through its front door: code outside lib/protocols/<name>/ imports
// `@/lib/protocols/<name>` (its index: the read side, writers, helpers the core uses) or one of
// its pure faces below, never a file inside it. So the core stays protocol-neutral and a protocol
// can reshape its insides without the app noticing. Relative paths count the same as `@/`.
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const PROTOCOL_FILE = /^lib\/protocols\/([^/]+)\/(.+?)(?:\.(?:ts|tsx|js|mjs))?$/;
/**
 * Files a protocol offers besides its index. The index reads the disk (server only), so client
 * components need faces that do not: `catalog` (its statuses and folders) and `client` (pure
 * helpers such as IGNITE's templates and header parsing).
 */
const PUBLIC_FACES = new Set(["index", "catalog", "client"]);

function repoPath(file) {
  return path.relative(ROOT, file).split(path.sep).join("/");
}

/** The protocol and inner file an import names, or null when it names no protocol's inside. */
function protocolInside(spec, importer) {
  let target;
  if (spec.startsWith("@/")) target = path.join(ROOT, spec.slice(2));
  else if (spec.startsWith("./") || spec.startsWith("../")) target = path.resolve(path.dirname(importer), spec);
  else return null;
  const m = PROTOCOL_FILE.exec(repoPath(target));
  if (!m || PUBLIC_FACES.has(m[2])) return null;
  return { protocol: m[1], file: m[2] };
}

const rule = {
  meta: {
    type: "problem",
    docs: { description: "Import a protocol only through its index (or its catalog/client face) from outside its folder" },
    messages: {
      deep: 'Import the {{protocol}} protocol through "@/lib/protocols/{{protocol}}" (or its catalog/client face), not "{{spec}}": files outside lib/protocols/{{protocol}}/ do not reach into it.',
    },
    schema: [],
  },
  create(context) {
    const importer = context.filename;
    const here = repoPath(importer);
    function check(source) {
      if (!source || source.type !== "Literal" || typeof source.value !== "string") return;
      const inside = protocolInside(source.value, importer);
      if (!inside || here.startsWith(`lib/protocols/${inside.protocol}/`)) return;
      context.report({ node: source, messageId: "deep", data: { protocol: inside.protocol, spec: source.value } });
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
