// US Drug Formulary 2.1.0 projection: a (state, program) pair's drug rules as one searchset Bundle of
// InsurancePlan (usdf-Formulary) + Basic (usdf-FormularyItem) + MedicationKnowledge (usdf-FormularyDrug),
// the shape of `Basic?code=formulary-item&formulary=InsurancePlan/X&_include=Basic:subject`.
import type { ReadModel } from '../corpus/read-model.js';
import type { CoverageRuleDoc, DrugCrosswalkDoc } from '../domain/documents.js';
import { DRUG_CLASS_LABELS, PROGRAM_LABELS, isDrugClass, type Program } from '../domain/vocabulary.js';
import { CODE_SYSTEMS, USDF_CS, USDF_EXT, USDF_PROFILE } from '../../fhir-profiles/canonicals.js';
import { fhirId, ruleLastUpdated } from './ids.js';
import type { Basic, Bundle, BundleEntry, Extension, InsurancePlan, MedicationKnowledge, Resource } from './r4.js';

const SPECIALTY = new Set(['specialty_biologics', 'specialty_non_biologic', 'rare_disease_orphan', 'hepatitis_c', 'oncology_oral', 'biosimilars']);
const BRAND = new Set(['brand_name_no_generic', 'brand_name_with_generic']);

/**
 * DrugTierID is 1..1 in the profile but our rules carry no tier: a coarse tier from the drug class, then from
 * whether the class is restricted at all (documented in docs/fhir.md).
 */
export function tierOf(rule: CoverageRuleDoc): { code: string; display: string } {
  const c = rule.subject.code;
  if (SPECIALTY.has(c)) return { code: 'specialty', display: 'Specialty' };
  if (BRAND.has(c)) return { code: 'brand', display: 'Brand' };
  return rule.requirement.paRequired ? { code: 'non-preferred', display: 'Non-Preferred' } : { code: 'preferred', display: 'Preferred' };
}

/** The USDF boolean flags a rule implies. */
export function restrictionsOf(rule: CoverageRuleDoc): { pa: boolean; step: boolean; ql: boolean; newStartsOnly: boolean } {
  const r = rule.requirement;
  return {
    pa: r.paRequired && (r.paType === 'full' || r.paType === 'conditional'),
    step: r.paType === 'step_therapy' || !!r.stepTherapy,
    ql: r.paType === 'quantity_limit' || !!r.quantityLimit,
    newStartsOnly: !!r.newStartsOnly,
  };
}

const bool = (url: string, v: boolean): Extension => ({ url, valueBoolean: v });

function formularyItem(rule: CoverageRuleDoc, planId: string, drugId: string): Basic {
  const f = restrictionsOf(rule);
  const tier = tierOf(rule);
  const extension: Extension[] = [
    { url: USDF_EXT.formularyReference, valueReference: { reference: `InsurancePlan/${planId}` } },
    { url: USDF_EXT.availabilityStatus, valueCode: 'active' },
    {
      // 1..* in the profile; our corpus has no benefit-type data, so the baseline retail benefit is stated.
      url: USDF_EXT.pharmacyBenefitType,
      valueCodeableConcept: { coding: [{ system: USDF_CS.pharmacyBenefitType, code: '1-month-in-retail', display: '1 month in network retail' }] },
    },
    { url: USDF_EXT.drugTier, valueCodeableConcept: { coding: [{ system: USDF_CS.drugTier, ...tier }] } },
    bool(USDF_EXT.priorAuthorization, f.pa),
    ...(f.pa && f.newStartsOnly ? [bool(USDF_EXT.priorAuthorizationNewStartsOnly, true)] : []),
    bool(USDF_EXT.stepTherapyLimit, f.step),
    ...(f.step && f.newStartsOnly ? [bool(USDF_EXT.stepTherapyLimitNewStartsOnly, true)] : []),
    bool(USDF_EXT.quantityLimit, f.ql),
  ];
  return {
    resourceType: 'Basic',
    id: fhirId('formularyitem', planId.replace(/^formulary-/, ''), drugId.replace(/^formularydrug-/, '')),
    meta: { lastUpdated: ruleLastUpdated(rule), profile: [USDF_PROFILE.formularyItem] },
    extension,
    code: { coding: [{ system: USDF_CS.itemType, code: 'formulary-item', display: 'Formulary Item' }] },
    subject: { reference: `MedicationKnowledge/${drugId}` },
  };
}

function formularyDrug(entry: DrugCrosswalkDoc | undefined, rule: CoverageRuleDoc): MedicationKnowledge {
  const label = isDrugClass(rule.subject.code) ? DRUG_CLASS_LABELS[rule.subject.code] : rule.subject.code;
  const coding = (entry?.rxnorm?.scd ?? []).map((code) => ({ system: CODE_SYSTEMS.rxnorm, code }));
  return {
    resourceType: 'MedicationKnowledge',
    id: entry ? fhirId('formularydrug', entry.id) : fhirId('formularydrug', 'class', rule.subject.code),
    meta: { lastUpdated: ruleLastUpdated(rule), profile: [USDF_PROFILE.formularyDrug] },
    code: {
      ...(coding.length ? { coding } : {}),
      text: entry ? `${entry.generic}${entry.brands.length ? ` (${entry.brands.join(', ')})` : ''}` : `${label} (drug class; no RxNorm crosswalk entry)`,
    },
    status: 'active',
  };
}

export interface FormularyInput {
  state: string;
  program: Program;
  base: string;
  now: Date;
}

/** The formulary bundle, or undefined when the pair has no verified drug rule (a scope gap). */
export function toFormularyBundle(model: ReadModel, q: FormularyInput): Bundle | undefined {
  const rules = (model.rulesByState.get(q.state) ?? []).filter((r) => r.program === q.program && r.subject.kind === 'drug');
  if (!rules.length) return undefined;
  const planId = fhirId('formulary', q.state, q.program);
  const stateName = model.jurisdictions.get(q.state)?.name ?? q.state;
  const lastUpdated = rules.map(ruleLastUpdated).sort().at(-1)!;
  const plan: InsurancePlan = {
    resourceType: 'InsurancePlan',
    id: planId,
    meta: { lastUpdated, profile: [USDF_PROFILE.formulary] },
    identifier: [{ system: `${q.base}/v1/formulary`, value: `${q.state}/${q.program}` }],
    status: 'active',
    type: [{ coding: [{ system: CODE_SYSTEMS.actCode, code: 'DRUGPOL', display: 'drug policy' }] }],
    name: `${stateName} ${PROGRAM_LABELS[q.program]}: drug prior-authorization formulary`,
  };
  const url = (r: Resource): string => `${q.base}/v1/${r.resourceType}/${r.id}`;
  const items: BundleEntry[] = [];
  const drugs = new Map<string, MedicationKnowledge>();
  for (const rule of rules) {
    const members = model.drugs.filter((d) => d.drugClass === rule.subject.code);
    for (const entry of members.length ? members : [undefined]) {
      const drug = formularyDrug(entry, rule);
      drugs.set(drug.id!, drug);
      const item = formularyItem(rule, planId, drug.id!);
      items.push({ fullUrl: url(item), resource: item, search: { mode: 'match' } });
    }
  }
  return {
    resourceType: 'Bundle',
    id: fhirId('formulary-bundle', q.state, q.program),
    meta: { lastUpdated },
    type: 'searchset',
    timestamp: q.now.toISOString(),
    total: items.length,
    link: [{ relation: 'self', url: `${q.base}/v1/formulary/${q.state}/${q.program}` }],
    entry: [
      { fullUrl: url(plan), resource: plan, search: { mode: 'include' } },
      ...items,
      ...[...drugs.values()].map((d) => ({ fullUrl: url(d), resource: d, search: { mode: 'include' as const } })),
    ],
  };
}
