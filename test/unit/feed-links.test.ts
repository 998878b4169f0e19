// A change-feed entry links where its change is read (found by an independent test pass: federal events linked to DC).
import { expect } from 'chai';
import type { EventChangeLogEntry } from '../../src/ingest/change-facts.js';
import { entryLink } from '../../src/services/change-feed.js';

const event = (over: Partial<EventChangeLogEntry>): EventChangeLogEntry => ({
  id: 'e1', at: '2026-11-26T00:00:00.000Z', corpusVersion: 2, action: 'added', resourceType: 'RegulatoryEvent', eventId: 7,
  jurisdiction: 'TX', programs: ['medicare_traditional'], eventKind: 'list_update', title: 'OPD list update', issuedAt: '2023-07-01',
  effectiveAt: '2023-07-01', summary: 'x', ...over,
});

describe('change-feed entry links', () => {
  const base = 'https://prauth.example';
  it('a federal event links to its own official source (or the topics when it has none), never to a state', () => {
    expect(entryLink(event({ jurisdiction: 'US', sourceUrl: 'https://www.ecfr.gov/current/title-42/section-419.83' }), base)).to.equal('https://www.ecfr.gov/current/title-42/section-419.83');
    expect(entryLink(event({ jurisdiction: 'US' }), base)).to.equal(`${base}/v1/topics`);
  });
  it('a federal rule\'s event links to its compliance view; a state event to the state', () => {
    expect(entryLink(event({ jurisdiction: 'US', federalRuleId: 'CMS-0057-F' }), base)).to.equal(`${base}/api/v1/compliance/CMS-0057-F`);
    expect(entryLink(event({ jurisdiction: 'TX' }), base)).to.equal(`${base}/v1/states?state=TX`);
  });
});
