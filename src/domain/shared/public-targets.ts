/**
 * Which outbound targets the service may reach for a client (webhook URLs, docs/contract/decisions.md,
 * Webhooks: target URLs): public unicast addresses only, and URLs that can only lead to one. Applied
 * where a URL is accepted (src/domain/webhooks/inputs.ts) and by the sender on the address it
 * actually connects to, at every attempt (src/providers/webhooks/http.ts); WEBHOOK_ALLOW_PRIVATE=true
 * (tests, closed networks) lifts it.
 *
 * The address ranges are ipaddr.js's special-purpose registries (IANA's IPv4 and IPv6 tables): an
 * address is public when ipaddr.js calls it `unicast`. An IPv6 address that carries an IPv4 address
 * for a host of the IPv4 internet (IPv4-mapped `::ffff:a.b.c.d`, the deprecated IPv4-compatible
 * `::a.b.c.d`) is as public as that IPv4 address.
 */
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/** The deprecated IPv4-compatible block (RFC 4291 2.5.5.1), which ipaddr.js counts as plain unicast. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96") as [ipaddr.IPv6, number];

/** Whether an IP address (v4 or v6, as resolved or written in a URL) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  const ip = address.replace(/%.*$/, ""); // an IPv6 zone (fe80::1%eth0) names an interface, not an address
  if (!isIP(ip)) return false; // strict dotted or colon forms only (ipaddr.js also reads "127.1" and hex parts)
  const parsed = ipaddr.parse(ip);
  if (parsed.kind() === "ipv4") return parsed.range() === "unicast";
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === "unicast";
  if (v6.match(IPV4_COMPATIBLE) && v6.range() === "unicast") return ipaddr.fromByteArray(v6.toByteArray().slice(12)).range() === "unicast";
  return v6.range() === "unicast";
}

/**
 * Why `url` may not be a target before any DNS lookup (scheme, credentials, a host that is a
 * non-public IP literal or `localhost`), or null. The resolved address is checked again by the
 * sender at every attempt.
 */
export function targetProblem(url: string, allowPrivate: boolean): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return "must be an absolute URL";
  }
  if (u.protocol !== "https:" && !(allowPrivate && u.protocol === "http:"))
    return allowPrivate ? "must be an http or https URL" : "must be an https URL";
  if (u.username || u.password) return "must not contain credentials";
  const host = u.hostname.replace(/^\[|\]$/g, "");
  if (!host) return "must name a host";
  if (allowPrivate) return null;
  if (isIP(host)) return isPublicAddress(host) ? null : "must not point at a loopback, private, link-local or otherwise non-public address";
  if (host === "localhost" || host.endsWith(".localhost") || !host.includes(".")) return "must name a public host";
  return null;
}
