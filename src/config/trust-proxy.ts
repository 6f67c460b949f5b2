import { isIP } from 'node:net';

/** Express's `trust proxy` setting: off, on (every hop), a hop count, or the trusted addresses. */
export type TrustProxy = boolean | number | string[];

/** Subnet names Express (proxy-addr) understands besides addresses and CIDRs. */
const NAMED_SUBNETS = new Set(['loopback', 'linklocal', 'uniquelocal']);

const MAX_HOPS = 100;

/**
 * `TRUST_PROXY` as Express takes it: `true`/`false`, a hop count (`1`: the load balancer in front
 * of the service), or a comma-separated list of proxy addresses and CIDRs (`10.0.0.0/8, ::1`,
 * `loopback`). Throws a message saying what is wrong, for the boot-time validation.
 */
export function parseTrustProxy(raw: string): TrustProxy {
  const value = raw.trim();
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > MAX_HOPS) throw new Error(`a hop count must be at most ${MAX_HOPS}`);
    return hops === 0 ? false : hops;
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !isTrustedProxyEntry(entry));
  if (bad.length > 0)
    throw new Error(
      `must be true, false, a hop count, or a comma-separated list of addresses, CIDRs, ` +
        `loopback, linklocal or uniquelocal; not ${bad.map((entry) => JSON.stringify(entry)).join(', ')}`,
    );
  return entries;
}

function isTrustedProxyEntry(entry: string): boolean {
  if (NAMED_SUBNETS.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}
