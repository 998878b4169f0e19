// Documentation patterns: what a prior-authorization questionnaire asks for a kind of rule, with the CQL that
// pre-populates each answer. One CQL library per pattern (cql/DTR<Pattern>.cql, on top of cql/DTRCommon.cql):
//   device  - durable medical equipment orders (home oxygen and mobility branches)
//   drug    - drug rules (prior therapy / step therapy branch)
//   service - procedures and other services (conservative treatment branch)
// Items carry sdc initialExpression / candidateExpression / contextExpression in text/cql, written
// "Library"."Definition" as DTR asks. Branching uses enableWhen; the adaptive form asks the same items one by one.
import type { Expression, Extension, QuestionnaireItem } from 'fhir/r4';
import type { CoverageRuleDoc } from '../../domain/documents.js';
import { SDC_EXT } from '../../../fhir-profiles/canonicals.js';
import { VALUE_SETS, valueSetUrl, type ValueSetKey } from './value-sets.js';

export type PatternId = 'device' | 'drug' | 'service';

export const PATTERN_LIBRARY: Readonly<Record<PatternId, string>> = { device: 'DTRDevice', drug: 'DTRDrug', service: 'DTRService' };

export function patternOf(rule: Pick<CoverageRuleDoc, 'subject'>): PatternId {
  if (rule.subject.kind === 'drug') return 'drug';
  return rule.subject.code === 'durable_medical_equipment' ? 'device' : 'service';
}

const cql = (lib: string, def: string, name?: string): Expression => ({ ...(name ? { name } : {}), language: 'text/cql', expression: `"${lib}"."${def}"` });
const initial = (lib: string, def: string): Extension => ({ url: SDC_EXT.initialExpression, valueExpression: cql(lib, def) });
const candidate = (lib: string, def: string): Extension => ({ url: SDC_EXT.candidateExpression, valueExpression: cql(lib, def) });
const context = (lib: string, def: string, name: string): Extension => ({ url: SDC_EXT.contextExpression, valueExpression: cql(lib, def, name) });
/** enableWhen on an answer; "no" is written `!= true` (R4: some answer differs from true), which is false while unanswered. */
const when = (question: string, answer: boolean | { system: string; code: string }): QuestionnaireItem['enableWhen'] => [
  typeof answer === 'boolean'
    ? answer
      ? { question, operator: '=', answerBoolean: true }
      : { question, operator: '!=', answerBoolean: true }
    : { question, operator: '=', answerCoding: answer },
];

export interface PatternItems {
  /** The pattern's own questions (before the documentation list). */
  items: QuestionnaireItem[];
  /** Value sets the items bind (shipped expanded in the package). */
  valueSets: ValueSetKey[];
  /** Questionnaire-level variable (what a renderer can use across items). */
  variable: Expression;
  /** Whether the documentation branches (enableWhen): the package then also offers the adaptive form. */
  branches: boolean;
}

function device(base: string): PatternItems {
  const L = PATTERN_LIBRARY.device;
  const cat = VALUE_SETS.dmeCategory;
  return {
    valueSets: ['dmeCategory', 'oxygenDiagnoses', 'oxygenTestCondition'],
    variable: cql(L, 'Is Home Oxygen Order', 'isHomeOxygenOrder'),
    branches: true,
    items: [
      { linkId: 'diagnosis', type: 'open-choice', repeats: true, required: true, text: 'Diagnoses that support the order', extension: [initial(L, 'Qualifying Diagnoses'), candidate(L, 'Active Diagnoses')] },
      { linkId: 'order-date', type: 'date', required: true, text: 'Date of the detailed written order', extension: [initial(L, 'Order Date')] },
      {
        linkId: 'face-to-face-date',
        type: 'date',
        required: true,
        text: 'Date of the face-to-face encounter with the treating practitioner',
        extension: [initial(L, 'Face To Face Encounter Date'), context(L, 'Recent Encounters', 'encounters')],
      },
      { linkId: 'equipment-category', type: 'choice', required: true, text: 'Equipment category', answerValueSet: valueSetUrl(base, 'dmeCategory'), extension: [initial(L, 'Equipment Category')] },
      {
        linkId: 'oxygen',
        type: 'group',
        text: 'Home oxygen: qualifying test',
        enableWhen: when('equipment-category', { system: cat.system, code: 'oxygen' }),
        item: [
          { linkId: 'oxygen-diagnosis', type: 'choice', repeats: true, required: true, text: 'Condition the oxygen is for', answerValueSet: valueSetUrl(base, 'oxygenDiagnoses'), extension: [initial(L, 'Qualifying Diagnoses')] },
          { linkId: 'oxygen-saturation', type: 'decimal', text: 'Oxygen saturation (%) of the qualifying test', extension: [initial(L, 'Most Recent Oxygen Saturation')] },
          { linkId: 'arterial-po2', type: 'decimal', text: 'Arterial PO2 (mm Hg), when a blood gas was taken', extension: [initial(L, 'Most Recent Arterial PO2')] },
          { linkId: 'oxygen-test-date', type: 'date', required: true, text: 'Date of the qualifying test', extension: [initial(L, 'Oxygen Saturation Date')] },
          { linkId: 'oxygen-test-condition', type: 'choice', required: true, text: 'When the test was taken', answerValueSet: valueSetUrl(base, 'oxygenTestCondition') },
          {
            linkId: 'oxygen-threshold',
            type: 'boolean',
            text: 'Result at or below 88% saturation or 55 mm Hg arterial PO2 (the Medicare NCD 240.2 group I values; the cited rule decides)',
            extension: [initial(L, 'Meets Oxygen Test Threshold')],
          },
          { linkId: 'oxygen-alternatives', type: 'boolean', required: true, text: 'Were alternative treatments tried or considered and found clinically ineffective?' },
        ],
      },
      {
        linkId: 'mobility',
        type: 'group',
        text: 'Mobility device',
        enableWhen: when('equipment-category', { system: cat.system, code: 'mobility' }),
        item: [
          { linkId: 'mobility-limitation', type: 'text', required: true, text: 'Mobility limitation that impairs activities of daily living in the home' },
          { linkId: 'mobility-home-assessment', type: 'attachment', text: 'Home assessment' },
        ],
      },
    ],
  };
}

function drug(rule: CoverageRuleDoc, base: string): PatternItems {
  const L = PATTERN_LIBRARY.drug;
  const r = rule.requirement;
  const branches = !!r.stepTherapy || r.documentation.some((d) => /tried|preferred|prior|trial/i.test(d));
  const items: QuestionnaireItem[] = [
    { linkId: 'diagnosis', type: 'open-choice', repeats: true, required: true, text: 'Diagnosis the drug is prescribed for', extension: [candidate(L, 'Active Diagnoses')] },
    { linkId: 'requested-medication', type: 'open-choice', required: true, text: 'Requested medication', extension: [initial(L, 'Requested Medications')] },
    { linkId: 'body-weight', type: 'decimal', text: 'Body weight (kg)', extension: [initial(L, 'Body Weight Kg')] },
    { linkId: 'prescriber-visit-date', type: 'date', text: 'Date of the visit at which the drug was prescribed', extension: [initial(L, 'Prescribing Encounter Date'), context(L, 'Recent Encounters', 'encounters')] },
  ];
  if (branches) {
    items.push(
      {
        linkId: 'prior-therapy',
        type: 'boolean',
        required: true,
        text: r.stepTherapy ? `Step therapy: ${r.stepTherapy} Has the patient tried the required prior therapies?` : 'Has the patient tried preferred or prior therapies?',
        extension: [initial(L, 'Has Prior Therapy')],
      },
      {
        linkId: 'prior-therapy-detail',
        type: 'group',
        text: 'Prior therapies',
        enableWhen: when('prior-therapy', true),
        item: [
          { linkId: 'prior-medications', type: 'open-choice', repeats: true, required: true, text: 'Medications tried', extension: [initial(L, 'Prior Medications'), candidate(L, 'Prior Medications')] },
          { linkId: 'prior-therapy-outcome', type: 'choice', required: true, text: 'Why they were stopped', answerValueSet: valueSetUrl(base, 'priorTherapyOutcome') },
          { linkId: 'prior-therapy-dates', type: 'string', text: 'Dates of the trials' },
        ],
      },
      { linkId: 'prior-therapy-exception', type: 'text', required: true, text: 'Why the preferred or prior therapies are not appropriate (contraindication or clinical reason)', enableWhen: when('prior-therapy', false) },
    );
  }
  return { items, valueSets: branches ? ['priorTherapyOutcome'] : [], variable: cql(L, 'Has Prior Therapy', 'hasPriorTherapy'), branches };
}

function service(rule: CoverageRuleDoc): PatternItems {
  const L = PATTERN_LIBRARY.service;
  const branches = rule.requirement.documentation.some((d) => /conservative/i.test(d));
  const items: QuestionnaireItem[] = [
    { linkId: 'diagnosis', type: 'open-choice', repeats: true, required: true, text: 'Diagnoses that support the service', extension: [candidate(L, 'Active Diagnoses')] },
    { linkId: 'requested-service', type: 'open-choice', required: true, text: 'Requested procedure or service', extension: [initial(L, 'Requested Services')] },
    { linkId: 'last-visit-date', type: 'date', text: 'Date of the last visit with the ordering practitioner', extension: [initial(L, 'Last Visit Date'), context(L, 'Recent Encounters', 'encounters')] },
  ];
  if (branches) {
    items.push(
      { linkId: 'conservative-treatment', type: 'boolean', required: true, text: 'Has conservative treatment been tried?', extension: [initial(L, 'Has Prior Procedures')] },
      {
        linkId: 'conservative-treatment-detail',
        type: 'group',
        text: 'Conservative treatment',
        enableWhen: when('conservative-treatment', true),
        item: [
          { linkId: 'conservative-procedures', type: 'open-choice', repeats: true, required: true, text: 'Treatments tried', extension: [initial(L, 'Prior Procedures'), candidate(L, 'Prior Procedures')] },
          { linkId: 'conservative-weeks', type: 'integer', text: 'Duration of conservative treatment (weeks)' },
        ],
      },
      { linkId: 'conservative-treatment-exception', type: 'text', required: true, text: 'Why conservative treatment is not appropriate', enableWhen: when('conservative-treatment', false) },
    );
  }
  return { items, valueSets: [], variable: cql(L, 'Has Prior Procedures', 'hasPriorProcedures'), branches };
}

/** The questions of a rule's pattern, then its documentation list (attachments) and its limits. */
export function patternItems(rule: CoverageRuleDoc, base: string): PatternItems {
  const p = patternOf(rule);
  const out = p === 'device' ? device(base) : p === 'drug' ? drug(rule, base) : service(rule);
  const r = rule.requirement;
  if (r.documentation.length) {
    out.items.push({
      linkId: 'documentation',
      type: 'group',
      text: 'Documentation the payer requires',
      item: r.documentation.map((doc, i) => ({ linkId: `documentation-${i + 1}`, type: 'attachment' as const, text: doc, required: r.paRequired })),
    });
  }
  if (r.quantityLimit) out.items.push({ linkId: 'quantity-limit', type: 'boolean', required: true, text: `Quantity limit: ${r.quantityLimit} Is the requested quantity within the limit?` });
  if (r.newStartsOnly) out.items.push({ linkId: 'new-start', type: 'boolean', required: true, text: 'Is this a new start (the patient is not continuing this therapy)?' });
  return out;
}
