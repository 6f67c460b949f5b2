import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** The socket inodes of established TCP connections whose far end is `port` (Linux `/proc/net`). */
function connectionsTo(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10) continue;
      const remotePort = parseInt(fields[2].split(':').pop() ?? '', 16);
      if (remotePort === port && fields[3] === '01') inodes.add(fields[9]);
    }
  }
  return inodes;
}

/**
 * Whether the process `pid` holds an established TCP connection to `port` on this host: which of
 * several worker processes has a request open at a customer endpoint. Linux only, as the fault
 * scenarios (they signal real processes).
 */
export function holdsConnectionTo(pid: number, port: number): boolean {
  const inodes = connectionsTo(port);
  if (inodes.size === 0) return false;
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  return fds.some((fd) => {
    try {
      const socket = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      return !!socket && inodes.has(socket[1]);
    } catch {
      return false; // closed since the listing
    }
  });
}
