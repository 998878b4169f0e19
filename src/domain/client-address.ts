// The client's address for per-address limits (failed authentication, notify, demo sessions). The socket's peer,
// unless that peer is a reverse proxy named in TRUST_PROXY: then the nearest X-Forwarded-For entry the trusted proxies
// did not add (the rightmost untrusted one, so a client cannot pick its own address by sending the header itself).
import { BlockList, isIP } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';

export type ClientAddressOf = (peer: string | undefined, headers: IncomingHttpHeaders) => string;

/** Parses TRUST_PROXY (IPs, CIDRs and `loopback`, comma-separated); the problem when an entry is neither. */
export function parseTrustProxy(raw: string | undefined): { list?: BlockList; entries: string[]; problem?: string } {
  const entries = (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (!entries.length) return { entries };
  const list = new BlockList();
  for (const e of entries) {
    if (e === 'loopback') {
      list.addSubnet('127.0.0.0', 8, 'ipv4');
      list.addAddress('::1', 'ipv6');
      continue;
    }
    const [ip, bits] = e.split('/');
    const family = isIP(ip ?? '');
    const max = family === 4 ? 32 : 128;
    if (!family || (bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= max))) {
      return { entries, problem: `TRUST_PROXY entries must be IP addresses, CIDR ranges or 'loopback' (got '${e}')` };
    }
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(ip!, type);
    else list.addSubnet(ip!, Number(bits), type);
  }
  return { list, entries };
}

/** IPv4-mapped IPv6 (::ffff:127.0.0.1) as the IPv4 address it carries. */
const plain = (a: string): string => (a.startsWith('::ffff:') && isIP(a.slice(7)) === 4 ? a.slice(7) : a);

function trusted(list: BlockList, address: string): boolean {
  const a = plain(address);
  const family = isIP(a);
  return family !== 0 && list.check(a, family === 4 ? 'ipv4' : 'ipv6');
}

export function clientAddressOf(list: BlockList | undefined): ClientAddressOf {
  return (peer, headers) => {
    const socket = plain(peer ?? 'unknown');
    if (!list || !trusted(list, socket)) return socket;
    const raw = headers['x-forwarded-for'];
    const hops = (Array.isArray(raw) ? raw.join(',') : (raw ?? '')).split(',').map((s) => s.trim()).filter(Boolean);
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = plain(hops[i]!);
      if (!isIP(hop)) return socket; // a malformed entry: keep the proxy's own address rather than guess
      if (!trusted(list, hop)) return hop;
    }
    return socket;
  };
}
