// The next steps say only what the rule says (found by an independent test pass): no documents the source does not
// list, a voluntary PA offered as the option it is, and a page address labelled for what it is.
import { expect } from 'chai';
import type { CoverageRuleDoc } from '../../src/domain/documents.js';
import { toNextSteps } from '../../src/services/pa-rule.js';
import { rule } from '../support/docs.js';

const withParts = (over: { requirement?: Partial<CoverageRuleDoc['requirement']>; submission?: CoverageRuleDoc['submission']; turnaround?: CoverageRuleDoc['turnaround'] }): CoverageRuleDoc => {
  const r = rule({ state: 'GA', program: 'medicare_traditional', kind: 'service', code: 'ambulance_transport', paType: 'conditional' });
  return { ...r, requirement: { ...r.requirement, ...over.requirement }, submission: over.submission ?? r.submission, turnaround: over.turnaround ?? r.turnaround };
};

describe('next steps', () => {
  it('when a required PA lists no documents, then step 1 says so instead of naming documents the source does not', () => {
    const steps = toNextSteps(withParts({ requirement: { paRequired: true, paType: 'full', documentation: [] } }));
    expect(steps[0]!.items).to.deep.equal(['The source lists no documents for this request; ask the payer what to send']);
    expect(JSON.stringify(steps)).not.to.include('Clinical notes supporting medical necessity');
  });

  it('when PA is conditional (some agents or situations only), then step 1 says to check the criteria first and step 2 submits only where they require it', () => {
    const steps = toNextSteps(withParts({ requirement: { paRequired: true, paType: 'conditional', documentation: [] } }));
    expect(steps[0]!.items[0]).to.equal('Check the criteria first: prior authorization applies only to the agents or situations they name; where none applies, no request is needed');
    expect(steps[1]!.title).to.equal('Submit the prior authorization request (where the criteria require one)');
    const full = toNextSteps(withParts({ requirement: { paRequired: true, paType: 'full', documentation: [] } }));
    expect(full[1]!.title).to.equal('Submit the prior authorization request');
    expect(JSON.stringify(full)).not.to.include('Check the criteria first');
  });

  it('when PA is voluntary, then the request is offered as optional, with its route, its documents and its clock', () => {
    const steps = toNextSteps(withParts({
      requirement: { paRequired: false, paMode: 'voluntary', documentation: ['Physician certification statement'] },
      submission: { channel: 'portal', target: 'The MAC for the state', url: 'https://www.example-mac.gov/portal' },
      turnaround: { standardHours: 168, expeditedHours: 48, basis: 'Model operational guide' },
    }));
    expect(steps[0]!.items).to.deep.equal(['Prior authorization is voluntary here; for a request, send:', 'Physician certification statement']);
    expect(steps[1]!.title).to.equal('Submit a voluntary prior authorization request (optional)');
    expect(steps[1]!.items[0]).to.match(/^Voluntary: you may request prior authorization/);
    expect(steps[1]!.items).to.include.members(['Submit to: The MAC for the state', 'Channel: portal', 'Online: https://www.example-mac.gov/portal']);
    expect(steps[2]!.items).to.deep.equal(['Standard: 7 calendar days (168 hours)', 'Expedited: 48 hours', 'Basis: Model operational guide']);
    expect(JSON.stringify(steps)).not.to.include('No prior authorization request is needed');
  });

  it('when PA is not required and not offered, then no request and no clock are named', () => {
    const steps = toNextSteps(withParts({ requirement: { paRequired: false, paType: 'none' }, submission: { channel: 'none', target: 'No PA request needed' } }));
    expect(steps[1]!.items[0]).to.match(/^No prior authorization request is needed/);
    expect(steps[2]!.items).to.deep.equal(['No decision to wait for']);
  });

  it('when a required PA has no traced clock, then step 3 says none is traced to the rule\'s sources (not that none is published) and gives the basis', () => {
    const steps = toNextSteps(withParts({ requirement: { paRequired: true }, turnaround: { standardHours: 0, expeditedHours: 0, basis: 'No decision timeframe traced to an official source for this rule yet' } }));
    expect(steps[2]!.items).to.deep.equal(["No decision timeframe is traced to this rule's sources; see the basis", 'Basis: No decision timeframe traced to an official source for this rule yet']);
    expect(JSON.stringify(steps)).not.to.include('is published');
  });

  it('a page address is "Online" only for a portal or electronic route; for any other route it is where the details are', () => {
    const phone = toNextSteps(withParts({ requirement: { paRequired: true }, submission: { channel: 'phone', target: 'The member\'s plan', url: 'https://hhs.example.gov/faq' } }));
    expect(phone[1]!.items).to.include('Details: https://hhs.example.gov/faq');
    const portal = toNextSteps(withParts({ requirement: { paRequired: true }, submission: { channel: 'portal', target: 'The plan portal', url: 'https://plan.example.gov' } }));
    expect(portal[1]!.items).to.include('Online: https://plan.example.gov');
  });
});
