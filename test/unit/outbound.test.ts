// OUTBOUND_DENY: addresses the service must not call for a client (a CRD fhirServer, a Subscription endpoint) (qa6 #6).
import { expect } from 'chai';
import { outboundCheck, parseOutboundDeny } from '../../src/domain/outbound.js';

describe('unit: outbound address policy', () => {
  it('parses IPs, CIDRs and private, and names a bad entry', () => {
    expect(parseOutboundDeny('').entries).to.deep.equal([]);
    expect(parseOutboundDeny('private, 203.0.113.0/24, 2001:db8::1').problem).to.equal(undefined);
    expect(parseOutboundDeny('10.0.0.0/40').problem).to.match(/OUTBOUND_DENY .*'10\.0\.0\.0\/40'/);
    expect(parseOutboundDeny('intranet').problem).to.match(/'intranet'/);
  });

  it('without a list every address may be called; with `private`, loopback, RFC 1918, link-local (cloud metadata) and ULA are refused, by literal or by name', async () => {
    expect(await outboundCheck(undefined)('http://127.0.0.1/x')).to.equal(undefined);
    const names: Record<string, string[]> = { 'ehr.example': ['93.184.216.34'], 'inside.example': ['93.184.216.34', '10.1.2.3'], 'gone.example': [] };
    const check = outboundCheck(parseOutboundDeny('private').list, async (h) => {
      if (!names[h]?.length) throw new Error('ENOTFOUND');
      return names[h]!;
    });
    for (const url of ['http://127.0.0.1:8080/fhir', 'http://[::1]/fhir', 'http://169.254.169.254/latest/meta-data', 'https://192.168.1.5/', 'http://[fd00::1]/', 'http://[::ffff:10.0.0.1]/']) {
      expect(await check(url), url).to.match(/is not allowed \(OUTBOUND_DENY\)/);
    }
    expect(await check('https://ehr.example/fhir')).to.equal(undefined);
    expect(await check('https://inside.example/fhir'), 'any private address of a name refuses it').to.equal('the address 10.1.2.3 of inside.example is not allowed (OUTBOUND_DENY)');
    expect(await check('https://gone.example/fhir')).to.equal('the host gone.example could not be resolved');
    expect(await check('https://8.8.8.8/')).to.equal(undefined);
  });
});
