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

const nextConfig: NextConfig = {
  // Native and Node-only packages stay outside the bundle.
  serverExternalPackages: ["better-sqlite3", "chokidar", "mailparser"],
  poweredByHeader: false,
  async headers() {
    return [{ source: "/:path*", headers: SECURITY_HEADERS }];
  },
};

export default nextConfig;
