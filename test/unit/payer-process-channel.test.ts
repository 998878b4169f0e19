// A route whose source names the payer but no channel (corpus/facts/FORMAT.md, `payer_process`): the loader accepts
// it, it verifies a rule like any other route, ingest accepts it, and the next steps tell the requester to ask the
// payer how to send the request instead of printing the enum.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { stringify } from 'yaml';
import { applyFacts } from '../../scripts/corpus/facts/apply.js';
import { loadFacts } from '../../scripts/corpus/facts/load.js';
import type { CoverageRuleDoc } from '../../src/domain/documents.js';
import { validateDocument } from '../../src/ingest/validate.js';
import { toNextSteps } from '../../src/services/pa-rule.js';
import { rule } from '../support/docs.js';

const SOURCE = { id: 'faq', url: 'https://hhs.iowa.gov/iahealthlink/faqs', title: 'PA FAQ', publisher: 'Iowa HHS' };
const TARGET = "The member's managed care plan, by the plan's own prior authorization process";

describe('route channel payer_process (the source names the payer, not the channel)', () => {
  it('when a fact sets it, then the loader accepts it and the rule is verified with that route', () => {
    const dir = mkdtempSync(join(tmpdir(), 'facts-'));
    mkdirSync(join(dir, 'national'));
    writeFileSync(join(dir, 'IA.yaml'), stringify({
      jurisdiction: 'IA', sources: [SOURCE],
      facts: [{
        id: 'pt', programs: ['medicaid_mco'], subjects: ['physical_therapy'],
        scope_basis: 'The FAQ says managed-care members follow their plan\'s PA requirements.',
        requirement: { pa_required: true, pa_type: 'conditional', pa_mode: 'plan_may_require', criteria: 'The plan may require PA; ask the plan.' },
        submission: { channel: 'payer_process', target: TARGET },
        evidence: [{ source: 'faq', locator: 'How are prior authorizations handled?', quote: 'must follow the MCO\'s prior authorization requirements' }],
        checked: '2026-11-26', review: { first_read: 'a', second_read: 'b' },
      }],
    }));
    const loaded = loadFacts(dir);
    expect(loaded.errors).to.deep.equal([]);
    const generated = rule({ state: 'IA', program: 'medicaid_mco', kind: 'service', code: 'physical_therapy', paType: 'full' });
    const { rules, report } = applyFacts([generated], loaded.facts);
    expect(report.errors).to.deep.equal([]);
    expect(rules[0]!.verification.status).to.equal('verified');
    expect(rules[0]!.submission).to.deep.equal({ channel: 'payer_process', target: TARGET });
  });

  it('when a rule carries it, then ingest accepts it and the next steps say to ask the payer how to send the request', () => {
    const r: CoverageRuleDoc = { ...rule({ state: 'IA', program: 'medicaid_mco', kind: 'service', code: 'physical_therapy', paType: 'conditional' }), submission: { channel: 'payer_process', target: TARGET } };
    expect(validateDocument(r)).to.deep.include({ ok: true });
    const submit = toNextSteps(r).find((s) => s.items.some((i) => i.startsWith('Submit to:')))!;
    expect(submit.items).to.include(`Submit to: ${TARGET}`);
    expect(submit.items).to.include("Channel: the payer's own process (the source names none); ask the payer how to send the request");
    expect(submit.items.join('\n')).not.to.include('payer process');
    expect(validateDocument({ ...r, submission: { channel: 'carrier_pigeon', target: TARGET } })).to.deep.include({ ok: false });
  });
});
