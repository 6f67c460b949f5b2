import * as dns from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppException } from '../errors/app.exception';
import { withTimeout } from '../time/with-timeout';

export interface UrlGuardOptions {
  /** Operator switch (WEBHOOK_ALLOW_PRIVATE_NETWORKS): tests and local development call localhost. */
  allowPrivateNetworks: boolean;
  /** Resolves a host name to every address it has; injectable for tests. */
  resolve?: (host: string) => Promise<string[]>;
  /** How long a save waits on DNS before trusting the connect-time check instead. */
  resolveTimeoutMs?: number;
}

/**
 * Only plain public unicast is allowed: ipaddr.js classifies loopback, private, linkLocal
 * (169.254.169.254, the cloud metadata address, included), carrierGradeNat, unspecified,
 * reserved, multicast and the IPv6 equivalents as other ranges. IPv4-mapped IPv6 is judged by
 * the IPv4 address inside it; other translation ranges (6to4, NAT64, Teredo) can smuggle an
 * internal IPv4 and are refused.
 */
export function isPublicAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return false;
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return isPublicAddress(v6.toIPv4Address().toString());
    // IPv4-compatible IPv6 (::/96, deprecated by RFC 4291): `[::127.0.0.1]` and `::a9fe:a9fe` carry
    // an IPv4 address some stacks still route to; no public service is reached this way.
    if (v6.match(IPV4_COMPATIBLE)) return false;
  } else if (BLOCKED_IPV4.has(parsed.toString())) {
    return false;
  }
  return parsed.range() === 'unicast';
}

/** The error code of a socket the connect-time guard refused to dial. */
export const BLOCKED_ADDRESS_CODE = 'EBLOCKEDADDRESS';

/**
 * The connect-time half of the SSRF guard, as the `lookup` of an `http.Agent`/`https.Agent`: the
 * system resolver's answer is judged before the socket dials, every address of it (Node asks for
 * all of them when it races IPv4 and IPv6), so a name that resolved to a public address before the
 * request and to an internal one now (DNS rebinding) fails with `BLOCKED_ADDRESS_CODE`. An IP
 * literal is dialled without a lookup: the check before the request judges it.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, options, (err, address, family) => {
    if (err) return callback(err, address, family);
    const list = Array.isArray(address) ? address.map((a) => a.address) : [address];
    const refused = list.find((a) => !isPublicAddress(a));
    if (refused === undefined) return callback(null, address, family);
    const error: NodeJS.ErrnoException = new Error(
      `connection to ${refused} refused: private, loopback, link-local or metadata address`,
    );
    error.code = BLOCKED_ADDRESS_CODE;
    callback(error, address, family);
  });
};

const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96') as [ipaddr.IPv6, number];
/** Public-looking unicast addresses that are in fact cloud-internal endpoints (Azure's wireserver). */
const BLOCKED_IPV4 = new Set(['168.63.129.16']);

/** Why a URL may not be called, or null when it may. Host names are resolved and every address must be public. */
export async function checkPublicUrl(
  url: string,
  options: UrlGuardOptions,
): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an http(s) URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must be an http(s) URL';
  if (options.allowPrivateNetworks) return null;
  // WHATWG URL parsing already turned decimal/hex/octal/short IPv4 forms into dotted quads.
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host))
    return isPublicAddress(host)
      ? null
      : 'must not target a private, loopback, link-local or metadata address';
  const lower = host.toLowerCase().replace(/\.$/, '');
  if (lower === 'localhost' || lower.endsWith('.localhost')) {
    return 'must not target a private, loopback, link-local or metadata address';
  }
  const addresses = await resolveWithTimeout(host, options);
  // One answer for a name that does not resolve and for one that resolves inside: a save must not
  // tell a caller which internal host names exist.
  if (addresses === null || addresses.length === 0 || addresses.some((a) => !isPublicAddress(a))) {
    return UNRESOLVED_OR_INTERNAL;
  }
  return null;
}

const UNRESOLVED_OR_INTERNAL =
  'must name a host that resolves, and only to public addresses (not private, loopback, link-local or metadata)';

async function resolveWithTimeout(
  host: string,
  options: UrlGuardOptions,
): Promise<string[] | null> {
  const resolve =
    options.resolve ??
    (async (h: string) =>
      (await dnsLookup(h, { all: true, verbatim: true })).map((a) => a.address));
  const ms = options.resolveTimeoutMs ?? 2000;
  // Unresolvable or slow: null, and the connect-time check decides.
  return withTimeout(resolve(host), ms, () => new Error(`no DNS answer within ${ms} ms`)).catch(
    () => null,
  );
}

/**
 * The save-time half of the SSRF guard (the connect-time half is `publicOnlyLookup`, in the
 * agents of `OutboundHttpClient`). Exported by `OutboundHttpModule` with the operator's setting applied.
 */
export class UrlGuard {
  constructor(private readonly options: UrlGuardOptions) {}

  get allowPrivateNetworks(): boolean {
    return this.options.allowPrivateNetworks;
  }

  /** Throws a 400 naming `field` when `url` may not be called. */
  async assertPublicUrl(url: string, field: string): Promise<void> {
    const problem = await checkPublicUrl(url, this.options);
    if (problem) throw AppException.validation([{ field, message: `${field} ${problem}` }]);
  }
}
