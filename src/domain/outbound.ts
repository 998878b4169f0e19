// Where the service may send requests on a client's behalf (a CRD call's fhirServer, a PAS Subscription's endpoint):
// OUTBOUND_DENY lists the addresses it must not reach (IPs, CIDRs, and `private` for loopback, RFC 1918, link-local,
// CGNAT and IPv6 unique-local ranges). A host name is resolved and refused when any of its addresses is listed. The
// check runs before each connection, so a name re-pointed between the check and the connect is a residual risk: a
// network egress policy remains the stronger control (docs/access.md).
import { isIP, type BlockList } from 'node:net';
import { listed, parseAddressList, type AddressList, type AddressRange } from './address-list.js';
import { lookup } from 'node:dns/promises';

const PRIVATE: readonly AddressRange[] = [
  ['127.0.0.0', 8, 'ipv4'], ['10.0.0.0', 8, 'ipv4'], ['172.16.0.0', 12, 'ipv4'], ['192.168.0.0', 16, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'], ['100.64.0.0', 10, 'ipv4'], ['0.0.0.0', 8, 'ipv4'],
  ['::1', 128, 'ipv6'], ['fc00::', 7, 'ipv6'], ['fe80::', 10, 'ipv6'], ['::', 128, 'ipv6'],
];

export const parseOutboundDeny = (raw: string | undefined): AddressList => parseAddressList('OUTBOUND_DENY', raw, { private: PRIVATE });

/** Why the URL may not be reached (its host, or an address it resolves to, is denied), or undefined when it may. */
export type OutboundCheck = (url: string) => Promise<string | undefined>;

export function outboundCheck(list: BlockList | undefined, resolve: (host: string) => Promise<string[]> = async (h) => (await lookup(h, { all: true })).map((a) => a.address)): OutboundCheck {
  return async (url) => {
    if (!list) return undefined;
    let host: string;
    try {
      host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    } catch {
      return 'not an absolute URL';
    }
    let addresses: string[];
    try {
      addresses = isIP(host) ? [host] : await resolve(host);
    } catch {
      return `the host ${host} could not be resolved`;
    }
    const denied = addresses.find((a) => listed(list, a));
    return denied ? `the address ${denied} of ${host} is not allowed (OUTBOUND_DENY)` : undefined;
  };
}

/** A call refused by OUTBOUND_DENY: its message is safe to show the caller (the address and the policy's name). */
export class OutboundRefused extends Error {
  override readonly name = 'OutboundRefused';
}
