// The CRD coverage-information extension (ext-coverage-information, CRD 2.2): a builder from our verdict, and the
// invariants the `fhir` structure validator cannot see (q1-q9 of the IG), used by the tests on every emission.
import { CRD_EXT, CRD_TEMP_CS, PRAUTH_DETAIL_CS } from '../../fhir-profiles/canonicals.js';
import type { CodeableConcept, Coding, Extension, Reference } from '../fhir/r4.js';

export type Covered = 'covered' | 'not-covered' | 'conditional' | 'indeterminate';
export type PaNeeded = 'no-auth' | 'auth-needed' | 'satisfied' | 'performpa' | 'conditional' | 'indeterminate';

export interface CoverageVerdict {
  coverage: Reference;
  covered: Covered;
  paNeeded?: PaNeeded;
  docNeeded?: ('clinical' | 'admin' | 'patient' | 'conditional' | 'indeterminate')[];
  docPurpose?: ('withpa' | 'withclaim' | 'withorder' | 'retain-doc' | 'OTH')[];
  infoNeeded?: ('performer' | 'location' | 'timeframe' | 'contract-window' | 'detail-code' | 'OTH')[];
  billingCode?: Coding[];
  reason?: CodeableConcept[];
  details?: { category: 'cat-limitation' | 'cat-decisional' | 'cat-other'; code: string; display: string; value: { url: string } | { string: string } }[];
  questionnaire?: string[];
  date: string;
  assertionId: string;
}

/** A reason from the CRD temp code system, or text only when no code fits (the IG allows text). */
export const reason = (code: 'no-member-found' | 'no-active-coverage' | 'coverage-not-found' | 'technical' | undefined, text: string): CodeableConcept =>
  code ? { coding: [{ system: CRD_TEMP_CS, code }], text } : { text };

export function toCoverageInformation(v: CoverageVerdict): Extension {
  const ext: Extension[] = [
    { url: 'coverage', valueReference: v.coverage },
    { url: 'covered', valueCode: v.covered },
    ...(v.paNeeded ? [{ url: 'pa-needed', valueCode: v.paNeeded }] : []),
    ...(v.docNeeded ?? []).map((c) => ({ url: 'doc-needed', valueCode: c })),
    ...(v.docPurpose ?? []).map((c) => ({ url: 'doc-purpose', valueCode: c })),
    ...(v.infoNeeded ?? []).map((c) => ({ url: 'info-needed', valueCode: c })),
    ...(v.billingCode ?? []).map((c) => ({ url: 'billingCode', valueCoding: c })),
    ...(v.reason ?? []).map((c) => ({ url: 'reason', valueCodeableConcept: c })),
    ...(v.details ?? []).map((d) => ({
      url: 'detail',
      extension: [
        { url: 'category', valueCodeableConcept: { coding: [{ system: CRD_TEMP_CS, code: d.category }] } },
        { url: 'code', valueCodeableConcept: { coding: [{ system: PRAUTH_DETAIL_CS, code: d.code, display: d.display }] } },
        'url' in d.value ? { url: 'value', valueUrl: d.value.url } : { url: 'value', valueString: d.value.string },
      ],
    })),
    ...(v.questionnaire ?? []).map((q) => ({ url: 'questionnaire', valueCanonical: q })),
    { url: 'date', valueDate: v.date },
    { url: 'coverage-assertion-id', valueString: v.assertionId },
  ];
  return { url: CRD_EXT.coverageInformation, extension: ext };
}

const CARD: Record<string, [number, number]> = {
  coverage: [1, 1], covered: [1, 1], 'pa-needed': [0, 1], date: [1, 1], 'coverage-assertion-id': [1, 1], 'satisfied-pa-id': [0, 1], 'expiry-date': [0, 1],
};
const CODES: Record<string, readonly string[]> = {
  covered: ['covered', 'not-covered', 'conditional', 'indeterminate'],
  'pa-needed': ['no-auth', 'auth-needed', 'satisfied', 'performpa', 'conditional', 'indeterminate'],
  'doc-needed': ['clinical', 'admin', 'patient', 'conditional', 'indeterminate'],
  'doc-purpose': ['withpa', 'withclaim', 'withorder', 'retain-doc', 'OTH'],
  'info-needed': ['performer', 'location', 'timeframe', 'contract-window', 'detail-code', 'OTH'],
};
const KNOWN = new Set(['coverage', 'covered', 'pa-needed', 'doc-needed', 'doc-purpose', 'info-needed', 'billingCode', 'reason', 'detail', 'dependency', 'questionnaire', 'date', 'coverage-assertion-id', 'satisfied-pa-id', 'contact', 'expiry-date']);

/** Violations of the extension's cardinalities, bindings and invariants q1-q9; empty when valid. */
export function coverageInformationProblems(ext: Extension): string[] {
  const problems: string[] = [];
  if (ext.url !== CRD_EXT.coverageInformation) return [`not a coverage-information extension: ${ext.url}`];
  const subs = ext.extension ?? [];
  const all = (url: string) => subs.filter((s) => s.url === url);
  const codes = (url: string) => all(url).map((s) => s.valueCode);
  for (const s of subs) if (!KNOWN.has(s.url)) problems.push(`unknown sub-extension '${s.url}'`);
  for (const [url, [min, max]] of Object.entries(CARD)) {
    const n = all(url).length;
    if (n < min || n > max) problems.push(`${url}: cardinality ${n}, expected ${min}..${max}`);
  }
  for (const [url, allowed] of Object.entries(CODES)) for (const c of codes(url)) if (!c || !allowed.includes(c)) problems.push(`${url}: code '${c}' not allowed`);
  if (all('coverage')[0] && !all('coverage')[0]!.valueReference) problems.push('coverage: must be a valueReference');
  if (all('date')[0] && !/^\d{4}-\d{2}-\d{2}$/.test(all('date')[0]!.valueDate ?? '')) problems.push('date: must be a valueDate');
  if (all('coverage-assertion-id')[0] && !all('coverage-assertion-id')[0]!.valueString) problems.push('coverage-assertion-id: must be a non-empty valueString');
  for (const d of all('detail')) {
    const parts = d.extension ?? [];
    if (parts.filter((p) => p.url === 'code').length !== 1) problems.push('detail: needs exactly one code');
    const values = parts.filter((p) => p.url === 'value');
    if (values.length !== 1 || !(values[0]!.valueUrl || values[0]!.valueString !== undefined || values[0]!.valueBoolean !== undefined || values[0]!.valuePeriod)) {
      problems.push('detail: needs exactly one value[x] (boolean, string, url, SimpleQuantity or Period)');
    }
  }
  for (const q of all('questionnaire')) if (!q.valueCanonical) problems.push('questionnaire: must be a valueCanonical');
  const covered = codes('covered')[0];
  const pa = codes('pa-needed')[0];
  const everything = [...codes('covered'), ...codes('pa-needed'), ...codes('doc-needed'), ...codes('doc-purpose'), ...codes('info-needed')];
  const hasReason = all('reason').length > 0;
  if (all('questionnaire').length && !all('doc-needed').length) problems.push('q1: questionnaire requires doc-needed');
  if (covered === 'not-covered' && pa) problems.push('q2: not-covered must not carry pa-needed');
  if (everything.includes('conditional') && !all('info-needed').length) problems.push('q3: conditional requires info-needed');
  if (codes('doc-purpose').includes('withpa') && (pa === 'satisfied' || pa === 'no-auth')) problems.push('q4: doc-purpose withpa not allowed with pa-needed satisfied or no-auth');
  if ((pa === 'satisfied') !== (all('satisfied-pa-id').length > 0)) problems.push('q5: satisfied-pa-id if and only if pa-needed=satisfied');
  if (codes('info-needed').includes('OTH') && !hasReason) problems.push('q6: info-needed OTH requires reason');
  if (all('doc-purpose').length && !hasReason) problems.push('q8: doc-purpose requires reason');
  if (everything.includes('indeterminate') && !hasReason) problems.push('q9: indeterminate requires reason');
  return problems;
}
