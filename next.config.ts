import type { NextConfig } from "next";

/**
 * Sent with every answer, pages and API alike. No other site may frame a page (a framed page's
 * Discard button could be clicked through an overlay), sniff a response into another type, or
 * learn a page's address from a link. The CSP sets only what needs no per-request nonce.
 */
const SECURITY_HEADERS = [
  { key: "Content-Security-Policy", value: "frame-ancestors 'none'; base-uri 'none'; object-src 'none'; form-action 'self'" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "no-referrer" },
];

// `npm run demo` builds with MAILROOM_QUICK_BUILD=1: no type check (npm test and CI run tsc and
// eslint themselves; it took 75 s of a 222 s first build on a loaded 2-core machine) and no
// build cache written to .next (27 s more, only of use to a rebuild).
const quickBuild = process.env.MAILROOM_QUICK_BUILD === "1";

const nextConfig: NextConfig = {
  // Native and Node-only packages stay outside the bundle.
  serverExternalPackages: ["better-sqlite3", "chokidar", "mailparser"],
  poweredByHeader: false,
  async headers() {
    return [{ source: "/:path*", headers: SECURITY_HEADERS }];
  },

  typescript: { ignoreBuildErrors: quickBuild },
  experimental: {
    turbopackFileSystemCacheForBuild: !quickBuild,
    // Each route's code is loaded at its first request, not all of it as the server starts: that
    // held the main thread 0.3 s (a CPU profile of a start), just as a first scan commits its
    // newest chunk. The first page after a start then takes 0.30-0.35 s, not 0.22.
    preloadEntriesOnStart: false,
  },
};

export default nextConfig;
