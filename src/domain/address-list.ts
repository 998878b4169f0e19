// A setting that lists IP addresses and ranges (TRUST_PROXY, OUTBOUND_DENY): IPs, CIDRs and named aliases,
// comma-separated, as a node:net BlockList; the problem names the setting and the entry it could not read.
import { BlockList, isIP } from 'node:net';

export type AddressRange = readonly [network: string, prefix: number, type: 'ipv4' | 'ipv6'];

export interface AddressList {
  list?: BlockList;
  entries: string[];
  problem?: string;
}

export function parseAddressList(setting: string, raw: string | undefined, aliases: Readonly<Record<string, readonly AddressRange[]>>): AddressList {
  const entries = (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (!entries.length) return { entries };
  const list = new BlockList();
  for (const e of entries) {
    const alias = aliases[e];
    if (alias) {
      for (const [net, bits, type] of alias) list.addSubnet(net, bits, type);
      continue;
    }
    const [ip, bits] = e.split('/');
    const family = isIP(ip ?? '');
    const max = family === 4 ? 32 : 128;
    if (!family || (bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= max))) {
      const names = Object.keys(aliases).map((a) => `'${a}'`).join(' or ');
      return { entries, problem: `${setting} entries must be IP addresses, CIDR ranges or ${names} (got '${e}')` };
    }
    list.addSubnet(ip!, bits === undefined ? max : Number(bits), family === 4 ? 'ipv4' : 'ipv6');
  }
  return { list, entries };
}

/** IPv4-mapped IPv6 (::ffff:127.0.0.1) as the IPv4 address it carries. */
export const plainAddress = (a: string): string => (a.startsWith('::ffff:') && isIP(a.slice(7)) === 4 ? a.slice(7) : a);

/** Whether a (plain or IPv4-mapped) address is in the list; not an address: false. */
export function listed(list: BlockList, address: string): boolean {
  const a = plainAddress(address);
  const family = isIP(a);
  return family !== 0 && list.check(a, family === 4 ? 'ipv4' : 'ipv6');
}
