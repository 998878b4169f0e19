// The CRD coverage-information extension (ext-coverage-information) in the shape CRD 2.0.1 defines (the version CMS
// recommends and the public CRD test kit validates): a builder from our verdict, and a checker of the 2.0.1 value
// sets, cardinalities and invariants crd-ci-q1..q5 (plus the reason rules 2.2 adds, which 2.0.1 data also meets),
// used by the tests on every emission. Where CRD 2.2 differs, docs/fhir.md says how.
import { CRD_EXT } from '../../../fhir-profiles/canonicals.js';
import type { CodeableConcept, Coding, Extension, Reference } from '../r4.js';
import { deepFreeze } from '../../domain/json.js';

/** CRD 2.0.1 ValueSet coverageInfo: no `indeterminate` (2.2 added it). */
export type Covered = 'covered' | 'not-covered' | 'conditional';
/** CRD 2.0.1 ValueSet coveragePaDetail. */
export type PaNeeded = 'no-auth' | 'auth-needed' | 'satisfied' | 'performpa' | 'conditional';
/** CRD 2.0.1 ValueSet AdditionalDocumentation (doc-needed is 0..1 in 2.0.1). */
export type DocNeeded = 'clinical' | 'admin' | 'both' | 'conditional';
export type DocPurpose = 'withpa' | 'withclaim' | 'withorder' | 'retain-doc' | 'OTH';
export type InfoNeeded = 'performer' | 'location' | 'timeframe' | 'contract-window' | 'OTH';

export interface CoverageDetail {
  /** A code of ours (our own system); 2.0.1's coverageDetail binding is extensible and has no code for these. */
  code: Coding;
  /** 2.0.1 allows boolean, string, Period or SimpleQuantity values (no url; 2.2 adds url and `category`). */
  value: { string: string } | { boolean: boolean };
}

export interface CoverageVerdict {
  coverage: Reference;
  covered: Covered;
  paNeeded?: PaNeeded;
  docNeeded?: DocNeeded;
  docPurpose?: DocPurpose[];
  infoNeeded?: InfoNeeded[];
  billingCode?: Coding[];
  reason?: readonly CodeableConcept[];
  details?: readonly CoverageDetail[];
  questionnaire?: string[];
  date: string;
  assertionId: string;
}

/** A reason as text: 2.0.1's coverageAssertionReasons (gold-card, detail-code) has no code for what we say. */
export const reason = (text: string): CodeableConcept => ({ text });

export function toCoverageInformation(v: CoverageVerdict): Extension {
  const ext: Extension[] = [
    { url: 'coverage', valueReference: v.coverage },
    { url: 'covered', valueCode: v.covered },
    ...(v.paNeeded ? [{ url: 'pa-needed', valueCode: v.paNeeded }] : []),
    ...(v.docNeeded ? [{ url: 'doc-needed', valueCode: v.docNeeded }] : []),
    ...(v.docPurpose ?? []).map((c) => ({ url: 'doc-purpose', valueCode: c })),
    ...(v.infoNeeded ?? []).map((c) => ({ url: 'info-needed', valueCode: c })),
    ...(v.billingCode ?? []).map((c) => ({ url: 'billingCode', valueCoding: c })),
    ...extensionsOf(v.reason, reasonExtension),
    ...extensionsOf(v.details, detailExtension),
    ...(v.questionnaire ?? []).map((q) => ({ url: 'questionnaire', valueCanonical: q })),
    { url: 'date', valueDate: v.date },
    { url: 'coverage-assertion-id', valueString: v.assertionId },
  ];
  return { url: CRD_EXT.coverageInformation, extension: ext };
}

const reasonExtension = (c: CodeableConcept): Extension => ({ url: 'reason', valueCodeableConcept: c });
const detailExtension = (d: CoverageDetail): Extension => ({
  url: 'detail',
  extension: [
    { url: 'code', valueCodeableConcept: { coding: [d.code] } },
    'string' in d.value ? { url: 'value', valueString: d.value.string } : { url: 'value', valueBoolean: d.value.boolean },
  ],
});

/** A rule's reasons and details are frozen lists made once per rule: their sub-extensions are made once too. */
const MADE = new WeakMap<readonly object[], readonly Extension[]>();
function extensionsOf<T extends object>(list: readonly T[] | undefined, make: (x: T) => Extension): readonly Extension[] {
  if (!list) return [];
  if (!Object.isFrozen(list)) return list.map(make);
  let made = MADE.get(list);
  if (!made) MADE.set(list, (made = deepFreeze(list.map(make))));
  return made;
}

// ---- the checker (CRD 2.0.1 StructureDefinition ext-coverage-information) ----

const CARD: Record<string, [number, number]> = {
  coverage: [1, 1],
  covered: [1, 1],
  'pa-needed': [0, 1],
  'doc-needed': [0, 1],
  date: [1, 1],
  'coverage-assertion-id': [1, 1],
  'satisfied-pa-id': [0, 1],
};
const CODES: Record<string, readonly string[]> = {
  covered: ['covered', 'not-covered', 'conditional'],
  'pa-needed': ['no-auth', 'auth-needed', 'satisfied', 'performpa', 'conditional'],
  'doc-needed': ['clinical', 'admin', 'both', 'conditional'],
  'doc-purpose': ['withpa', 'withclaim', 'withorder', 'retain-doc', 'OTH'],
  'info-needed': ['performer', 'location', 'timeframe', 'contract-window', 'OTH'],
};
const KNOWN = new Set(['coverage', 'covered', 'pa-needed', 'doc-needed', 'doc-purpose', 'info-needed', 'billingCode', 'reason', 'detail', 'dependency', 'questionnaire', 'response', 'date', 'coverage-assertion-id', 'satisfied-pa-id', 'contact']);
const DETAIL_VALUES = ['valueBoolean', 'valueString', 'valuePeriod', 'valueQuantity'] as const;

/** Violations of the CRD 2.0.1 extension (cardinalities, required bindings, crd-ci-q1..q5) and of our reason rules; empty when valid. */
export function coverageInformationProblems(ext: Extension): string[] {
  const problems: string[] = [];
  if (ext.url !== CRD_EXT.coverageInformation) return [`not a coverage-information extension: ${ext.url}`];
  const subs = ext.extension ?? [];
  const all = (url: string) => subs.filter((s) => s.url === url);
  const codes = (url: string) => all(url).map((s) => s.valueCode);
  for (const s of subs) if (!KNOWN.has(s.url)) problems.push(`unknown sub-extension '${s.url}' (not defined in CRD 2.0.1)`);
  for (const [url, [min, max]] of Object.entries(CARD)) {
    const n = all(url).length;
    if (n < min || n > max) problems.push(`${url}: cardinality ${n}, expected ${min}..${max}`);
  }
  for (const [url, allowed] of Object.entries(CODES)) for (const c of codes(url)) if (!c || !allowed.includes(c)) problems.push(`${url}: code '${c}' not in the CRD 2.0.1 value set`);
  if (all('coverage')[0] && !all('coverage')[0]!.valueReference?.reference) problems.push('coverage: must be a valueReference with a reference');
  if (all('date')[0] && !/^\d{4}-\d{2}-\d{2}$/.test(all('date')[0]!.valueDate ?? '')) problems.push('date: must be a valueDate');
  if (all('coverage-assertion-id')[0] && !all('coverage-assertion-id')[0]!.valueString) problems.push('coverage-assertion-id: must be a non-empty valueString');
  for (const d of all('detail')) {
    const parts = d.extension ?? [];
    for (const p of parts) if (!['code', 'value', 'qualification'].includes(p.url)) problems.push(`detail: sub-extension '${p.url}' is not defined in CRD 2.0.1`);
    if (parts.filter((p) => p.url === 'code').length !== 1) problems.push('detail: needs exactly one code');
    const values = parts.filter((p) => p.url === 'value');
    const kinds = values.flatMap((v) => Object.keys(v).filter((k) => k.startsWith('value')));
    if (values.length !== 1 || kinds.length !== 1 || !(DETAIL_VALUES as readonly string[]).includes(kinds[0]!)) {
      problems.push(`detail: needs exactly one value of type boolean, string, Period or SimpleQuantity (got ${kinds.join(', ') || 'none'})`);
    }
  }
  for (const q of all('questionnaire')) if (!q.valueCanonical) problems.push('questionnaire: must be a valueCanonical');
  const covered = codes('covered')[0];
  const pa = codes('pa-needed')[0];
  const hasReason = all('reason').length > 0;
  const conditional = [...codes('covered'), ...codes('pa-needed'), ...codes('doc-needed')].includes('conditional');
  if ((all('questionnaire').length || all('response').length) && !all('doc-needed').length) problems.push('crd-ci-q1: questionnaire or response requires doc-needed');
  if (covered && covered !== 'not-covered' && !pa) problems.push('crd-ci-q2: pa-needed is required unless covered is not-covered');
  if (all('info-needed').length && !conditional) problems.push('crd-ci-q3: info-needed requires covered, pa-needed or doc-needed to be conditional');
  if (conditional && !all('info-needed').length) problems.push('conditional requires info-needed (CRD 2.2 crd-ci-q3; met here so both versions hold)');
  if ((pa === 'satisfied') !== (all('satisfied-pa-id').length > 0)) problems.push('crd-ci-q5: satisfied-pa-id if and only if pa-needed=satisfied');
  if (codes('doc-purpose').includes('withpa') && (pa === 'satisfied' || pa === 'no-auth')) problems.push('doc-purpose withpa is not allowed when pa-needed is satisfied or no-auth');
  if (codes('info-needed').includes('OTH') && !hasReason) problems.push('info-needed OTH requires a reason');
  if (all('doc-purpose').length && !hasReason) problems.push('doc-purpose requires a reason');
  return problems;
}
