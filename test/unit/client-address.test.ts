// TRUST_PROXY and the client address per-address limits use (qa6 #1: behind the documented reverse proxy every client
// arrived from 127.0.0.1, so one client's failed logins throttled everyone).
import { expect } from 'chai';
import fc from 'fast-check';
import { clientAddressOf, parseTrustProxy } from '../../src/domain/client-address.js';

describe('unit: client address behind trusted proxies', () => {
  it('parses IPs, CIDRs and loopback, and names a bad entry', () => {
    expect(parseTrustProxy(undefined)).to.deep.equal({ entries: [] });
    expect(parseTrustProxy('loopback, 10.0.0.0/8, 2001:db8::1').problem).to.equal(undefined);
    expect(parseTrustProxy('10.0.0.0/33').problem).to.match(/TRUST_PROXY .*'10\.0\.0\.0\/33'/);
    expect(parseTrustProxy('proxy.example').problem).to.match(/'proxy\.example'/);
  });

  it('without trusted proxies, the socket peer (IPv4-mapped addresses as IPv4), whatever X-Forwarded-For says', () => {
    const of = clientAddressOf(undefined);
    expect(of('::ffff:127.0.0.1', { 'x-forwarded-for': '203.0.113.7' })).to.equal('127.0.0.1');
    expect(of(undefined, {})).to.equal('unknown');
  });

  it('behind trusted proxies, the rightmost untrusted X-Forwarded-For entry; an untrusted peer is itself', () => {
    const of = clientAddressOf(parseTrustProxy('loopback,10.0.0.0/8').list);
    expect(of('127.0.0.1', { 'x-forwarded-for': '203.0.113.7' })).to.equal('203.0.113.7');
    expect(of('127.0.0.1', { 'x-forwarded-for': '198.51.100.9, 203.0.113.7, 10.1.2.3' })).to.equal('203.0.113.7');
    expect(of('127.0.0.1', { 'x-forwarded-for': ['198.51.100.9', '10.1.2.3'] })).to.equal('198.51.100.9');
    expect(of('127.0.0.1', {})).to.equal('127.0.0.1');
    expect(of('127.0.0.1', { 'x-forwarded-for': 'not-an-ip' })).to.equal('127.0.0.1');
    expect(of('192.0.2.1', { 'x-forwarded-for': '203.0.113.7' }), 'a peer that is not a trusted proxy').to.equal('192.0.2.1');
  });

  it('property: whatever a client prepends to X-Forwarded-For, the address counted is the one the trusted proxy appended', () => {
    const of = clientAddressOf(parseTrustProxy('loopback').list);
    const ipv4 = fc.tuple(fc.integer({ min: 1, max: 223 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 254 })).map((p) => p.join('.')).filter((a) => !a.startsWith('127.'));
    fc.assert(fc.property(fc.array(fc.oneof(ipv4, fc.string()), { maxLength: 5 }), ipv4, (spoofed, real) => {
      const header = [...spoofed.map((s) => s.replace(/,/g, '')), real].join(', ');
      return of('127.0.0.1', { 'x-forwarded-for': header }) === real;
    }));
  });
});
