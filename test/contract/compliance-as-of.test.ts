// GET /api/v1/compliance/{rule_id} answers as of the service clock: a compliance date that has passed is in force.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import request from 'supertest';
import type { CanonicalDoc } from '../../src/domain/documents.js';
import { expectOpenApi } from '../support/openapi.js';
import { makeTestApp, type TestApp } from '../support/test-app.js';

const fixture = (f: string): CanonicalDoc[] => readFileSync(new URL(`../../fixtures/${f}`, import.meta.url), 'utf8').trim().split('\n').map((l) => JSON.parse(l));

describe('GET /api/v1/compliance/{rule_id} as of the clock', function () {
  this.timeout(60_000);
  const at = async (iso: string): Promise<TestApp> => makeTestApp([...fixture('jurisdictions.ndjson'), ...fixture('events.ndjson')], { now: () => new Date(iso) });

  it('when CMS-0057-F is asked on 2026-11-26, then no state is not_yet_due: the 2026 dates are in force and unknown, the 2027 APIs not yet due', async () => {
    const t = await at('2026-11-26T12:00:00Z');
    const res = await request(t.app.handler).get('/api/v1/compliance/CMS-0057-F');
    expect(res.status).to.equal(200);
    expectOpenApi((await import('../../src/http/routes/index.js')).allRoutes(t.deps), res);
    expect(res.body.as_of).to.equal('2026-11-26');
    expect(res.body.summary).to.deep.equal({ in_compliance: 0, partial: 0, overdue: 0, not_yet_due: 0, unknown: 51, total: 51 });
    const { provisions, ...oh } = res.body.jurisdictions.OH;
    expect(oh).to.deep.equal({
      status: 'unknown',
      event_id: oh.event_id,
      event_title: 'CMS-0057-F decision timeframes and denial reasons: Ohio Medicaid and CHIP (status not verified)',
      effective_at: '2026-01-01',
      compliance_at: '2026-01-01',
      source_url: oh.source_url,
      confidence: 0.5,
    });
    expect(provisions.map((p: { compliance_at: string; status: string }) => `${p.compliance_at} ${p.status}`)).to.deep.equal([
      '2026-01-01 unknown',
      '2026-03-31 unknown',
      '2027-01-01 not_yet_due',
    ]);
    const due = res.body.federal_events.map((e: { effective_at: string }) => e.effective_at).filter((d: string) => d <= '2026-11-26');
    expect(due).to.include.members(['2026-01-01', '2026-03-31']);
  });

  it('when it is asked on 2025-12-01, then every state is not_yet_due, citing the 2026-01-01 date', async () => {
    const t = await at('2025-12-01T12:00:00Z');
    const res = await request(t.app.handler).get('/api/v1/compliance/CMS-0057-F');
    expect(res.body.summary).to.deep.equal({ in_compliance: 0, partial: 0, overdue: 0, not_yet_due: 51, unknown: 0, total: 51 });
    expect(res.body.jurisdictions.OH).to.deep.include({ status: 'not_yet_due', compliance_at: '2026-01-01' });
  });
});
