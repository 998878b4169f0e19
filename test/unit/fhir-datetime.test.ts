// FHIR dateTime (R4 datatypes.html#dateTime) with real calendar dates: PAS Claim.created is checked with it (qa6 #5).
import { expect } from 'chai';
import fc from 'fast-check';
import { isFhirDateTime } from '../../src/domain/time.js';

describe('unit: FHIR dateTime', () => {
  it('accepts the R4 forms', () => {
    for (const v of ['2026', '2026-11', '2026-11-26', '2024-02-29', '2005-05-02T11:01:00+05:00', '2026-11-26T21:00:00Z', '2026-11-26T21:00:00.123Z', '2026-11-26T23:59:60Z']) expect(isFhirDateTime(v), v).to.equal(true);
  });
  it('refuses impossible dates, partial times, missing zones and other types', () => {
    for (const v of ['2026-13-45', '2026-02-30', '2025-02-29', '2026-00', '2026-11-26T21:00', '2026-11-26T21:00:00', 'yesterday', '', 20261126, undefined, null]) expect(isFhirDateTime(v), String(v)).to.equal(false);
  });
  it('property: every real calendar day is accepted, as date and as dateTime in UTC', () => {
    fc.assert(fc.property(fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2199-12-31T23:59:59Z'), noInvalidDate: true }), (d) => {
      const iso = d.toISOString();
      return isFhirDateTime(iso.slice(0, 10)) && isFhirDateTime(iso.replace(/\.\d+Z$/, 'Z'));
    }));
  });
});
