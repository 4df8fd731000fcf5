import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native and Node-only packages stay outside the bundle.
  serverExternalPackages: ["better-sqlite3", "chokidar", "mailparser"],
  poweredByHeader: false,
};

export default nextConfig;
