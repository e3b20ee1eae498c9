/**
 * What webhook delivery asks of the outside world: one signed POST to an integrator's URL, with the
 * target policy every sender must apply (docs/contract/decisions.md, Webhooks: target URLs).
 *
 * The policy, checked by the sender on the address it actually connects to, at every attempt:
 * `https` only, and never a loopback, private, link-local or otherwise non-public address, unless
 * WEBHOOK_ALLOW_PRIVATE=true (tests, closed networks). Redirects are not followed; the answer's
 * body and the attempt's time are bounded.
 */
import { BlockList, isIP } from "node:net";

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** The whole attempt (resolve, connect, answer, body) must end within this. */
  timeoutMs: number;
}

export interface WebhookAnswer {
  /** The HTTP status, or null when no answer came (refused target, DNS, connection, timeout). */
  status: number | null;
  /** Why the attempt failed without an answer (or a note on the answer); null on a plain answer. */
  error: string | null;
}

export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookAnswer>;
}

// ---------------------------------------------------------------------------------------------
// Which addresses are public

const NON_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata services)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  NON_PUBLIC.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 96], // unspecified, loopback, IPv4-compatible (deprecated)
  ["::ffff:0:0:0", 96], // IPv4-translated (SIIT)
  ["64:ff9b::", 96], // NAT64 (reaches IPv4 addresses through a translator)
  ["64:ff9b:1::", 48], // local-use NAT64
  ["100::", 64], // discard
  ["2001::", 23], // IETF protocol assignments (Teredo, benchmarking, ORCHID …)
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4 (embeds an IPv4 address)
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const) {
  NON_PUBLIC.addSubnet(net, prefix, "ipv6");
}

/** The IPv4 address inside an IPv4-mapped or IPv4-compatible IPv6 address (`::ffff:127.0.0.1`), if any. */
function embeddedIpv4(ip: string): string | null {
  const m = /^(?:0{0,4}:){0,5}(?:ffff:)?((?:\d{1,3}\.){3}\d{1,3})$/i.exec(ip.replace(/^::/, "0::"));
  if (m) return m[1]!;
  const hex = /^(?:0{0,4}:){0,5}ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(ip.replace(/^::/, "0::"));
  if (hex) {
    const a = parseInt(hex[1]!, 16);
    const b = parseInt(hex[2]!, 16);
    return `${a >> 8}.${a & 255}.${b >> 8}.${b & 255}`;
  }
  return null;
}

/** Whether an IP address (v4 or v6, as resolved or written in a URL) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  const ip = address.replace(/%.*$/, ""); // an IPv6 zone (fe80::1%eth0) names an interface, not an address
  const family = isIP(ip);
  if (family === 4) return !NON_PUBLIC.check(ip, "ipv4");
  if (family === 6) {
    const v4 = embeddedIpv4(ip);
    if (v4) return isIP(v4) === 4 && !NON_PUBLIC.check(v4, "ipv4");
    return !NON_PUBLIC.check(ip, "ipv6");
  }
  return false;
}

/**
 * Why `url` may not be a webhook target before any DNS lookup (scheme, credentials, a host that is
 * a non-public IP literal or `localhost`), or null. The resolved address is checked again by the
 * sender at every attempt.
 */
export function targetProblem(url: string, allowPrivate: boolean): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return "must be an absolute URL";
  }
  if (u.protocol !== "https:" && !(allowPrivate && u.protocol === "http:")) return allowPrivate ? "must be an http or https URL" : "must be an https URL";
  if (u.username || u.password) return "must not contain credentials";
  const host = u.hostname.replace(/^\[|\]$/g, "");
  if (!host) return "must name a host";
  if (allowPrivate) return null;
  if (isIP(host)) return isPublicAddress(host) ? null : "must not point at a loopback, private, link-local or otherwise non-public address";
  if (host === "localhost" || host.endsWith(".localhost") || !host.includes(".")) return "must name a public host";
  return null;
}
