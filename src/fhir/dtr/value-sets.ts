// The answer value sets the DTR questionnaires bind coded items to. Each is shipped expanded in the questionnaire
// package (DTR 2.0.1: value sets expanded as of the current date). ICD-10-CM codes are real codes; the categories of
// our own questions use our own code systems (urn:prauth:dtr:*), there being no standard one for them.
import type { ValueSet } from 'fhir/r4';

export interface AnswerValueSet {
  id: string;
  title: string;
  description: string;
  system: string;
  concepts: readonly { code: string; display: string }[];
}

const ICD10CM = 'http://hl7.org/fhir/sid/icd-10-cm';

export const VALUE_SETS = {
  dmeCategory: {
    id: 'dtr-dme-category',
    title: 'Durable medical equipment category',
    description: 'What kind of equipment a DME order is for; decides which documentation branch applies.',
    system: 'urn:prauth:dtr:dme-category',
    concepts: [
      { code: 'oxygen', display: 'Home oxygen equipment' },
      { code: 'mobility', display: 'Mobility device (wheelchair, scooter, walker)' },
      { code: 'other', display: 'Other durable medical equipment' },
    ],
  },
  oxygenDiagnoses: {
    id: 'dtr-oxygen-diagnoses',
    title: 'Diagnoses commonly documented for home oxygen',
    description: 'ICD-10-CM codes of conditions commonly documented with a home oxygen order (the same list as DTRDevice."Oxygen Diagnosis Codes").',
    system: ICD10CM,
    concepts: [
      { code: 'J44.0', display: 'Chronic obstructive pulmonary disease with (acute) lower respiratory infection' },
      { code: 'J44.1', display: 'Chronic obstructive pulmonary disease with (acute) exacerbation' },
      { code: 'J44.9', display: 'Chronic obstructive pulmonary disease, unspecified' },
      { code: 'J43.9', display: 'Emphysema, unspecified' },
      { code: 'J96.11', display: 'Chronic respiratory failure with hypoxia' },
      { code: 'J96.12', display: 'Chronic respiratory failure with hypercapnia' },
      { code: 'J84.10', display: 'Pulmonary fibrosis, unspecified' },
      { code: 'J84.9', display: 'Interstitial pulmonary disease, unspecified' },
      { code: 'I27.20', display: 'Pulmonary hypertension, unspecified' },
      { code: 'I27.0', display: 'Primary pulmonary hypertension' },
      { code: 'E84.0', display: 'Cystic fibrosis with pulmonary manifestations' },
      { code: 'G47.33', display: 'Obstructive sleep apnea (adult) (pediatric)' },
    ],
  },
  oxygenTestCondition: {
    id: 'dtr-oxygen-test-condition',
    title: 'Condition of the oxygen test',
    description: 'When the qualifying blood gas or oximetry test was taken.',
    system: 'urn:prauth:dtr:oxygen-test-condition',
    concepts: [
      { code: 'rest', display: 'At rest, awake' },
      { code: 'exertion', display: 'During exercise' },
      { code: 'sleep', display: 'During sleep' },
    ],
  },
  priorTherapyOutcome: {
    id: 'dtr-prior-therapy-outcome',
    title: 'Outcome of a prior therapy',
    description: 'Why a preferred or prior therapy was stopped.',
    system: 'urn:prauth:dtr:prior-therapy-outcome',
    concepts: [
      { code: 'inadequate-response', display: 'Inadequate response' },
      { code: 'intolerance', display: 'Intolerance or adverse reaction' },
      { code: 'contraindicated', display: 'Contraindicated' },
    ],
  },
} as const satisfies Record<string, AnswerValueSet>;

export type ValueSetKey = keyof typeof VALUE_SETS;

export const valueSetUrl = (base: string, key: ValueSetKey): string => `${base}/v1/ValueSet/${VALUE_SETS[key].id}`;
export const VALUE_SET_VERSION = '1.0.0';

export function toValueSet(key: ValueSetKey, base: string, now: Date): ValueSet {
  const vs = VALUE_SETS[key];
  return {
    resourceType: 'ValueSet',
    id: vs.id,
    text: { status: 'generated', div: `<div xmlns="http://www.w3.org/1999/xhtml"><p>${vs.title}: ${vs.concepts.map((c) => `${c.code} ${c.display}`).join('; ').replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p></div>` },
    url: valueSetUrl(base, key),
    version: VALUE_SET_VERSION,
    name: vs.id.replace(/(^|-)([a-z0-9])/g, (_m, _d, c: string) => c.toUpperCase()),
    title: vs.title,
    status: 'active',
    description: vs.description,
    compose: { include: [{ system: vs.system, concept: vs.concepts.map((c) => ({ code: c.code, display: c.display })) }] },
    expansion: {
      identifier: `urn:uuid:${'00000000-0000-4000-8000-000000000000'.slice(0, 24)}${Buffer.from(vs.id).toString('hex').slice(0, 12).padEnd(12, '0')}`,
      timestamp: now.toISOString(),
      total: vs.concepts.length,
      contains: vs.concepts.map((c) => ({ system: vs.system, code: c.code, display: c.display })),
    },
  };
}

export const valueSetKeyById = (id: string): ValueSetKey | undefined =>
  (Object.keys(VALUE_SETS) as ValueSetKey[]).find((k) => VALUE_SETS[k].id === id);
