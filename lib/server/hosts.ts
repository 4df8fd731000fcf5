import { isIP } from "node:net";

/**
 * The host name a Host header (or an Origin's host) names, lowercased, without the port and a
 * trailing dot; null when it is not a host at all (empty, a path, user info, several values).
 */
export function hostNameOf(hostHeader: string): string | null {
  if (!/^[^\s/\\?#@,]+$/.test(hostHeader) || !URL.canParse(`http://${hostHeader}`)) return null;
  const name = new URL(`http://${hostHeader}`).hostname.replace(/\.$/, "");
  return name === "" ? null : name;
}

function bareIp(name: string): string {
  return name.startsWith("[") && name.endsWith("]") ? name.slice(1, -1) : name;
}

export function isIpLiteral(name: string): boolean {
  return isIP(bareIp(name)) !== 0;
}

/** An address (as a socket gives it, or a host name) that only this machine can reach. */
export function isLoopback(address: string): boolean {
  const bare = bareIp(address.toLowerCase());
  if (bare === "localhost" || bare.endsWith(".localhost")) return true;
  if (bare === "::1" || bare === "0:0:0:0:0:0:0:1") return true;
  // IPv4 loopback, also as an IPv4-mapped IPv6 address (a dual-stack socket's view of 127.0.0.1).
  return /^(::ffff:)?127(\.\d{1,3}){3}$/.test(bare);
}

/**
 * Whether a Host may be answered at all (DNS rebinding: a page on evil.example that resolves the
 * name to 127.0.0.1 reaches us with `Host: evil.example`). A browser only sends an IP literal when
 * the user typed one, so any IP passes, as do loopback names and the names configured.
 */
export function isServedHost(name: string, allowedHosts: readonly string[]): boolean {
  return isIpLiteral(name) || isLoopback(name) || allowedHosts.includes(name);
}
