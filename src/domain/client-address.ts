// The client's address for per-address limits (failed authentication, notify, demo sessions). The socket's peer,
// unless that peer is a reverse proxy named in TRUST_PROXY: then the nearest X-Forwarded-For entry the trusted proxies
// did not add (the rightmost untrusted one, so a client cannot pick its own address by sending the header itself).
import { isIP, type BlockList } from 'node:net';
import { listed, parseAddressList, plainAddress, type AddressList } from './address-list.js';
import type { IncomingHttpHeaders } from 'node:http';

export type ClientAddressOf = (peer: string | undefined, headers: IncomingHttpHeaders) => string;

/** Parses TRUST_PROXY (IPs, CIDRs and `loopback`, comma-separated); the problem when an entry is neither. */
export const parseTrustProxy = (raw: string | undefined): AddressList =>
  parseAddressList('TRUST_PROXY', raw, { loopback: [['127.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6']] });

export function clientAddressOf(list: BlockList | undefined): ClientAddressOf {
  return (peer, headers) => {
    const socket = plainAddress(peer ?? 'unknown');
    if (!list || !listed(list, socket)) return socket;
    const raw = headers['x-forwarded-for'];
    const hops = (Array.isArray(raw) ? raw.join(',') : (raw ?? '')).split(',').map((s) => s.trim()).filter(Boolean);
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = plainAddress(hops[i]!);
      if (!isIP(hop)) return socket; // a malformed entry: keep the proxy's own address rather than guess
      if (!listed(list, hop)) return hop;
    }
    return socket;
  };
}
