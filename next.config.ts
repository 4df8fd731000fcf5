import type { NextConfig } from "next";

// `npm run demo` builds with MAILROOM_QUICK_BUILD=1: no type check (npm test and CI run tsc and
// eslint themselves; it took 75 s of a 222 s first build on a loaded 2-core machine) and no
// build cache written to .next (27 s more, only of use to a rebuild).
const quickBuild = process.env.MAILROOM_QUICK_BUILD === "1";

const nextConfig: NextConfig = {
  // Native and Node-only packages stay outside the bundle.
  serverExternalPackages: ["better-sqlite3", "chokidar", "mailparser"],
  poweredByHeader: false,
  typescript: { ignoreBuildErrors: quickBuild },
  experimental: { turbopackFileSystemCacheForBuild: !quickBuild },
};

export default nextConfig;
