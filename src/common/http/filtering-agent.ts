import * as dns from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP, Socket, type TcpNetConnectOpts } from 'node:net';
import type { Duplex } from 'node:stream';
import { isPublicAddress } from './url-guard';

export const BLOCKED_ADDRESS_CODE = 'EBLOCKEDADDRESS';

/** The connect-time SSRF guard refused the address a socket was about to dial. */
export class BlockedAddressError extends Error {
  readonly code = BLOCKED_ADDRESS_CODE;
  constructor(readonly address: string) {
    super(`connection to ${address} refused: private, loopback, link-local or metadata address`);
    this.name = 'BlockedAddressError';
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;
type Lookup = (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => void;

/** Wraps DNS so every address a host name resolves to is checked before the socket dials it. */
function guardedLookup(base: Lookup): Lookup {
  return (hostname, options, callback) => {
    base(hostname, options, (err, address, family) => {
      if (err) return callback(err, address, family);
      const list = Array.isArray(address) ? address.map((a) => a.address) : [address];
      const refused = list.find((a) => !isPublicAddress(a));
      if (refused !== undefined) return callback(new BlockedAddressError(refused), address, family);
      callback(null, address, family);
    });
  };
}

type ConnectionListener = (error: Error | null, socket: Duplex) => void;

/**
 * Shared by both agents: an IP literal is judged as is; a host name gets the guarded lookup, so
 * the check applies to the address actually dialled (DNS rebinding included).
 */
function filteredOptions(options: TcpNetConnectOpts): {
  options: TcpNetConnectOpts;
  refused?: BlockedAddressError;
} {
  const host = (options.host ?? '').replace(/^\[(.*)\]$/, '$1');
  if (host && isIP(host) && !isPublicAddress(host))
    return { options, refused: new BlockedAddressError(host) };
  const base = options.lookup ?? dns.lookup;
  return {
    options: { ...options, lookup: guardedLookup(base) },
  };
}

function refusedSocket(error: Error, listener?: ConnectionListener): Socket {
  const socket = new Socket();
  if (listener) listener(error, socket);
  else process.nextTick(() => socket.destroy(error));
  return socket;
}

/** http.Agent that refuses non-public addresses at connect time. */
export class FilteringHttpAgent extends http.Agent {
  override createConnection(options: TcpNetConnectOpts, listener?: ConnectionListener): Duplex {
    const { options: safe, refused } = filteredOptions(options);
    if (refused) return refusedSocket(refused, listener);
    return super.createConnection(safe, listener) as Duplex;
  }
}

/** https.Agent that refuses non-public addresses at connect time. */
export class FilteringHttpsAgent extends https.Agent {
  override createConnection(options: TcpNetConnectOpts, listener?: ConnectionListener): Duplex {
    const { options: safe, refused } = filteredOptions(options);
    if (refused) return refusedSocket(refused, listener);
    return super.createConnection(safe, listener) as Duplex;
  }
}
