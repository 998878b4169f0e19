// US Drug Formulary 2.0.1 resources projected from the read model: Locations (coverage areas), Formulary and
// PayerInsurancePlan InsurancePlans, FormularyItems (Basic) and FormularyDrugs (MedicationKnowledge). Built once per
// read model (the model is swapped whole on ingest, so the cache is keyed by the model object) and shared by read,
// search and the per-pair bundle. Pure: no store, no clock, no request data (fullUrls are added per response).
import type { ReadModel } from '../../corpus/read-model.js';
import type { CoverageRuleDoc, DrugCrosswalkDoc, PayerDoc } from '../../domain/documents.js';
import { PROGRAM_LABELS, type Program } from '../../domain/vocabulary.js';
import { CODE_SYSTEMS, USDF_CS, USDF_EXT, USDF_PROFILE } from '../../../fhir-profiles/canonicals.js';
import type { Scope } from '../../domain/named-scope.js';
import { ruleLastUpdated, safeId } from '../ids.js';
import { regionOf } from './region.js';
import type { Basic, CodeableConcept, Extension, InsurancePlan, Location, MedicationKnowledge, Resource } from '../r4.js';

export type UsdfResource = InsurancePlan | Basic | MedicationKnowledge | Location;

/** Every USDF resource of one read model, by type and by `Type/id`, with the subscription scope each belongs to. */
export interface UsdfIndex {
  readonly byType: ReadonlyMap<'InsurancePlan' | 'Basic' | 'MedicationKnowledge' | 'Location', readonly UsdfResource[]>;
  readonly byRef: ReadonlyMap<string, UsdfResource>;
  /** Scope of a resource (`Type/id`): a key must cover it. Drugs (reference data) have an empty scope. */
  readonly scopeOf: ReadonlyMap<string, Scope>;
  /** The same scopes keyed by the resource object (no string building on the search path); shared per formulary. */
  readonly scopeByResource: ReadonlyMap<object, Scope>;
  /** The Formulary InsurancePlan id of a (state, program) pair, when the pair has verified drug rules. */
  readonly formularyOf: ReadonlyMap<string, string>;
}

const SPECIALTY = new Set(['specialty_biologics', 'specialty_non_biologic', 'rare_disease_orphan', 'hepatitis_c', 'oncology_oral', 'biosimilars']);
const BRAND = new Set(['brand_name_no_generic', 'brand_name_with_generic']);
const DAR = 'http://hl7.org/fhir/StructureDefinition/data-absent-reason';
const PRODUCT_TYPE_CS = 'http://hl7.org/fhir/us/davinci-pdex-plan-net/CodeSystem/InsuranceProductTypeCS';
const PLAN_TYPE_CS = 'http://terminology.hl7.org/CodeSystem/insurance-plan-type';
const COST_TYPE_CS = 'http://hl7.org/fhir/us/davinci-drug-formulary/CodeSystem/usdf-BenefitCostTypeCS-TEMPORARY-TRIAL-USE';

/** An element the profile requires but our corpus does not hold: data-absent-reason `unknown` plus a reason. */
const unknown = (text: string): CodeableConcept => ({ extension: [{ url: DAR, valueCode: 'unknown' }], text });

/**
 * DrugTierID is 1..1 but our rules carry no tier. Specialty and brand-name classes name their tier (USDF 2.0.1
 * DrugTierCS); for the other classes the tier is not known and is sent as data-absent (docs/fhir.md).
 */
export function tierOf(rule: CoverageRuleDoc): CodeableConcept {
  const c = rule.subject.code;
  if (SPECIALTY.has(c)) return { coding: [{ system: USDF_CS.drugTier, code: 'specialty', display: 'Specialty' }] };
  if (BRAND.has(c)) return { coding: [{ system: USDF_CS.drugTier, code: 'brand', display: 'Brand' }] };
  return unknown('Drug tier not in this corpus: see the plan formulary');
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

// InsuranceProductTypeCS (Plan-Net) per program; CHIP and dual-eligible have no code there (extensible binding).
const PRODUCT_TYPE: Record<Program, { code: string; display: string } | undefined> = {
  medicaid_mco: { code: 'medi', display: 'Medicaid' },
  medicaid_ffs: { code: 'medi', display: 'Medicaid' },
  medicare_advantage: { code: 'mediadv', display: 'Medicare Advantage' },
  medicare_traditional: { code: 'mediab', display: 'Medicare A/B' },
  part_d: { code: 'medid', display: 'Medicare Part D' },
  dual_eligible: undefined,
  chip: undefined,
};
const productType = (program: Program): CodeableConcept[] => {
  const t = PRODUCT_TYPE[program];
  return [t ? { coding: [{ system: PRODUCT_TYPE_CS, ...t }] } : { coding: [{ system: 'urn:prauth:program', code: program, display: PROGRAM_LABELS[program] }], text: PROGRAM_LABELS[program] }];
};

const bool = (url: string, v: boolean): Extension => ({ url, valueBoolean: v });
const latest = (dates: string[]): string => dates.sort().at(-1)!;
const earliestStart = (rules: readonly CoverageRuleDoc[]): string | undefined =>
  rules.map((r) => r.effective?.start).filter((s): s is string => !!s).sort()[0];

interface FormularyDef {
  id: string;
  state: string;
  program: Program;
  payer?: PayerDoc;
  rules: CoverageRuleDoc[];
}

function formularyPlan(def: FormularyDef, stateName: string): InsurancePlan {
  const start = earliestStart(def.rules);
  const label = `${stateName} ${PROGRAM_LABELS[def.program]}`;
  // Drugs handed over to another program (Original Medicare's to Part D): the title says so.
  const others = [...new Set(def.rules.map((r) => r.decidedBy ?? r.program))].filter((p) => p !== def.program);
  const some = def.rules.some((r) => (r.decidedBy ?? r.program) === def.program);
  const via = others.length ? ` (${some ? 'some' : 'these'} drugs are covered through ${others.map((p) => PROGRAM_LABELS[p]).join(' or ')})` : '';
  return {
    resourceType: 'InsurancePlan',
    id: def.id,
    meta: { lastUpdated: latest(def.rules.map(ruleLastUpdated)), profile: [USDF_PROFILE.formulary] },
    identifier: [{ system: 'urn:prauth:formulary', value: def.payer ? `${def.payer.id}/${def.state}/${def.program}` : `${def.state}/${def.program}` }],
    status: 'active',
    type: [{ coding: [{ system: CODE_SYSTEMS.actCode, code: 'DRUGPOL' }] }],
    name: `${def.payer ? `${def.payer.name}, ` : ''}${label}: drug prior-authorization formulary${via}`,
    ...(start ? { period: { start } } : {}),
    // The state the formulary's rules are for (our rules are per state and program).
    coverageArea: [{ reference: `Location/${locationId(def.state)}` }],
  };
}

/**
 * RxNorm names a semantic clinical drug "<ingredients and strengths> <dose form>", the dose form being the name of
 * its dose form concept (TTY DF): the NLM name of each product we carry ends with one of these. The DF concepts'
 * RXCUIs are not in our sources, so the form is given as text (the `doseform` search, on codes, matches none).
 */
const RXNORM_DOSE_FORMS = ['Extended Release Oral Tablet', 'Delayed Release Oral Capsule', 'Sublingual Tablet', 'Transdermal System', 'Oral Tablet', 'Oral Capsule'] as const;
export const doseFormOf = (rxnormName: string | undefined): string | undefined => RXNORM_DOSE_FORMS.find((f) => rxnormName?.endsWith(` ${f}`));

type Product = { code: string; name?: string };
/** A crosswalk entry's RxNorm semantic drugs: its named products, else its bare SCD codes (an operator's ingest may omit names). */
const productsOf = (d: DrugCrosswalkDoc): Product[] => d.rxnorm?.products ?? (d.rxnorm?.scd ?? []).map((code) => ({ code }));

function formularyDrug(product: Product, entry: DrugCrosswalkDoc, lastUpdated: string): MedicationKnowledge {
  return {
    resourceType: 'MedicationKnowledge',
    id: safeId('formularydrug', product.code),
    meta: { lastUpdated, profile: [USDF_PROFILE.formularyDrug] },
    code: {
      coding: [{ system: CODE_SYSTEMS.rxnorm, code: product.code, ...(product.name ? { display: product.name } : {}) }],
      text: `${entry.generic}${entry.brands.length ? ` (${entry.brands.join(', ')})` : ''}`,
    },
    status: 'active',
    ...(doseFormOf(product.name) ? { doseForm: { text: doseFormOf(product.name)! } } : {}),
    ...(entry.brands.length ? { synonym: [...entry.brands] } : {}),
  };
}

/** A USDF boolean flag, or none where its value is unknown. */
const flag = (url: string, value: boolean | undefined): Extension[] => (value === undefined ? [] : [bool(url, value)]);

function formularyItem(rule: CoverageRuleDoc, formularyId: string, drugId: string, rxcui: string): Basic {
  const f = restrictionsOf(rule);
  // Where the plan decides (pa_mode plan_may_require), or the rule is conditional (some agents of the class need PA,
  // others not, and it does not say which side this drug is on), the flags (0..1 in the profile) are left out.
  const unknownPerDrug = rule.requirement.paMode === 'plan_may_require' || rule.requirement.paType === 'conditional';
  const pa = unknownPerDrug ? undefined : f.pa;
  const step = unknownPerDrug ? undefined : f.step;
  const ql = unknownPerDrug ? undefined : f.ql;
  const period = rule.effective?.start ? { start: rule.effective.start, ...(rule.effective.end ? { end: rule.effective.end } : {}) } : undefined;
  const extension: Extension[] = [
    { url: USDF_EXT.formularyReference, valueReference: { reference: `InsurancePlan/${formularyId}` } },
    { url: USDF_EXT.availabilityStatus, valueCode: 'active' },
    ...(period ? [{ url: USDF_EXT.availabilityPeriod, valuePeriod: period }] : []),
    {
      // 1..* in the profile; our corpus has no benefit-type data, so the baseline retail benefit is stated (docs/fhir.md).
      url: USDF_EXT.pharmacyBenefitType,
      valueCodeableConcept: { coding: [{ system: USDF_CS.pharmacyBenefitType, code: '1-month-in-retail', display: '1 month in network retail' }] },
    },
    { url: USDF_EXT.drugTier, valueCodeableConcept: tierOf(rule) },
    ...flag(USDF_EXT.priorAuthorization, pa),
    ...flag(USDF_EXT.priorAuthorizationNewStartsOnly, pa && f.newStartsOnly ? true : undefined),
    ...flag(USDF_EXT.stepTherapyLimit, step),
    ...flag(USDF_EXT.stepTherapyLimitNewStartsOnly, step && f.newStartsOnly ? true : undefined),
    ...flag(USDF_EXT.quantityLimit, ql),
  ];
  return {
    resourceType: 'Basic',
    id: safeId('formularyitem', formularyId.replace(/^formulary-/, ''), rxcui),
    meta: { lastUpdated: ruleLastUpdated(rule), profile: [USDF_PROFILE.formularyItem] },
    extension,
    code: { coding: [{ system: USDF_CS.itemType, code: 'formulary-item', display: 'Formulary Item' }] },
    subject: { reference: `MedicationKnowledge/${drugId}` },
  };
}

/** A usdf-PayerInsurancePlan: who offers the drug coverage, where, and which formularies apply. */
function payerPlan(p: {
  id: string;
  identifier: string;
  name: string;
  program: Program;
  states: string[];
  formularies: InsurancePlan[];
  contact?: InsurancePlan['contact'];
}): InsurancePlan {
  const start = p.formularies.map((f) => f.period?.start).filter((s): s is string => !!s).sort()[0];
  return {
    resourceType: 'InsurancePlan',
    id: p.id,
    meta: { lastUpdated: latest(p.formularies.map((f) => f.meta!.lastUpdated!)), profile: [USDF_PROFILE.payerInsurancePlan] },
    identifier: [{ system: 'urn:prauth:plan', value: p.identifier }],
    status: 'active',
    type: productType(p.program),
    name: p.name,
    ...(start ? { period: { start } } : {}),
    coverageArea: p.states.map((s) => ({ reference: `Location/${locationId(s)}` })),
    ...(p.contact?.length ? { contact: p.contact } : {}),
    coverage: [
      {
        extension: p.formularies.map((f) => ({ url: USDF_EXT.formularyReference, valueReference: { reference: `InsurancePlan/${f.id}` } })),
        type: { coding: [{ system: CODE_SYSTEMS.actCode, code: 'DRUGPOL' }] },
        benefit: [{ type: { coding: [{ system: PLAN_TYPE_CS, code: 'drug', display: 'Drug' }] } }],
      },
    ],
    plan: [
      {
        type: { coding: [{ system: PLAN_TYPE_CS, code: 'drug', display: 'Drug' }] },
        // The profile requires one cost-sharing block; the corpus holds no cost sharing, so tier and qualifier are
        // data-absent and no value is given (docs/fhir.md).
        specificCost: [
          {
            category: { coding: [{ system: USDF_CS.pharmacyBenefitType, code: '1-month-in-retail', display: '1 month in network retail' }] },
            benefit: [
              {
                type: unknown('Drug tier not in this corpus'),
                cost: [{ type: { coding: [{ system: COST_TYPE_CS, code: 'copay', display: 'Copay' }] }, qualifiers: [unknown('Cost sharing not in this corpus: see the plan documents')] }],
              },
            ],
          },
        ],
      },
    ],
  };
}

export const locationId = (state: string): string => safeId('state', state);

const cache = new WeakMap<ReadModel, UsdfIndex>();

/** The USDF resources of a read model (built on first use, then shared until the model is swapped). */
export function usdfIndex(model: ReadModel): UsdfIndex {
  let index = cache.get(model);
  if (!index) {
    index = buildUsdfIndex(model);
    cache.set(model, index);
  }
  return index;
}

function buildUsdfIndex(model: ReadModel): UsdfIndex {
  const scopeOf = new Map<string, Scope>();
  const scopeByResource = new Map<object, Scope>();
  const byRef = new Map<string, UsdfResource>();
  const add = <R extends UsdfResource>(list: R[], r: R, scope: Scope): void => {
    const ref = `${r.resourceType}/${r.id}`;
    if (byRef.has(ref)) throw new Error(`duplicate USDF id ${ref}`); // ids are unique by construction; a clash is a bug
    byRef.set(ref, r);
    scopeOf.set(ref, scope);
    scopeByResource.set(r, scope);
    list.push(r);
  };
  const stateName = (s: string): string => model.jurisdictions.get(s)?.name ?? s;
  const byClass = new Map<string, DrugCrosswalkDoc[]>();
  for (const d of model.drugs) if (productsOf(d).length) byClass.set(d.drugClass, [...(byClass.get(d.drugClass) ?? []), d]);
  const products = (dc: string): readonly DrugCrosswalkDoc[] => byClass.get(dc) ?? [];
  const corpusDate = `${model.lastVerified ?? '1970-01-01'}T00:00:00Z`;

  // Formularies: program-level per (state, program); a payer's own per (payer, state, program) where it has
  // payer-level drug rules (its rule wins over the program's for a class, as in lookups).
  const defs: FormularyDef[] = [];
  const programRules = new Map<string, CoverageRuleDoc[]>();
  for (const [state, rules] of model.rulesByState) {
    for (const r of rules) {
      if (r.subject.kind !== 'drug') continue;
      const k = `${state}|${r.program}`;
      const list = programRules.get(k);
      if (list) list.push(r);
      else programRules.set(k, [r]);
    }
  }
  const formularyOf = new Map<string, string>();
  for (const [k, rules] of [...programRules].sort(([a], [b]) => a.localeCompare(b))) {
    const [state, program] = k.split('|') as [string, Program];
    const id = safeId('formulary', state, program);
    formularyOf.set(k, id);
    defs.push({ id, state, program, rules });
  }
  const payerDrugRules = new Map<string, CoverageRuleDoc[]>();
  for (const list of model.payerRules.values()) {
    for (const r of list) {
      if (r.subject.kind !== 'drug' || !r.payer) continue;
      const k = `${r.payer.id}|${r.jurisdiction}|${r.program}`;
      const list = payerDrugRules.get(k);
      if (list) list.push(r);
      else payerDrugRules.set(k, [r]);
    }
  }
  const payerFormularyOf = new Map<string, string>();
  for (const [k, own] of [...payerDrugRules].sort(([a], [b]) => a.localeCompare(b))) {
    const [payerId, state, program] = k.split('|') as [string, string, Program];
    const payer = model.payers.get(payerId);
    if (!payer) continue;
    const ownClasses = new Set(own.map((r) => r.subject.code));
    const rules = [...own, ...(programRules.get(`${state}|${program}`) ?? []).filter((r) => !ownClasses.has(r.subject.code))];
    const id = safeId('formulary', payerId, state, program);
    payerFormularyOf.set(k, id);
    defs.push({ id, state, program, payer, rules: rules.sort((a, b) => a.id.localeCompare(b.id)) });
  }

  const plans: InsurancePlan[] = [];
  const items: Basic[] = [];
  const drugs: MedicationKnowledge[] = [];
  const locations: Location[] = [];
  const formularyById = new Map<string, InsurancePlan>();
  const drugIds = new Map<string, string>();
  for (const def of defs) {
    const scope = { states: [def.state], programs: [def.program] };
    const plan = formularyPlan(def, stateName(def.state));
    add(plans, plan, scope);
    formularyById.set(def.id, plan);
    const seen = new Set<string>();
    for (const rule of [...def.rules].sort((a, b) => a.id.localeCompare(b.id))) {
      if (rule.requirement.exclusion) continue; // not covered: no FormularyItem says it is (docs/formulary.md)
      for (const entry of products(rule.subject.code)) {
        for (const product of productsOf(entry)) {
          if (seen.has(product.code)) continue; // one item per drug per formulary; the first rule (by id) wins
          seen.add(product.code);
          let drugId = drugIds.get(product.code);
          if (!drugId) {
            const mk = formularyDrug(product, entry, corpusDate);
            add(drugs, mk, { states: [], programs: [] });
            drugId = mk.id!;
            drugIds.set(product.code, drugId);
          }
          add(items, formularyItem(rule, def.id, drugId, product.code), scope);
        }
      }
    }
  }

  // Payer insurance plans: the program in a state (program-level rules), and each payer per program.
  const usedStates = new Set<string>();
  for (const [k, id] of formularyOf) {
    const [state, program] = k.split('|') as [string, Program];
    const j = model.jurisdictions.get(state);
    const medicaidLike = program === 'medicaid_mco' || program === 'medicaid_ffs' || program === 'chip' || program === 'dual_eligible';
    const contact = j && medicaidLike ? [{ name: { text: j.medicaidAgency.name }, telecom: [{ system: 'url' as const, value: j.medicaidAgency.url }] }] : undefined;
    usedStates.add(state);
    add(
      plans,
      payerPlan({ id: safeId('payerplan', state, program), identifier: `${state}/${program}`, name: `${stateName(state)} ${PROGRAM_LABELS[program]} (program-level rules)`, program, states: [state], formularies: [formularyById.get(id)!], contact }),
      { states: [state], programs: [program] },
    );
  }
  for (const payer of [...model.payers.values()].sort((a, b) => a.id.localeCompare(b.id))) {
    for (const program of payer.programs) {
      const states = payer.jurisdictions.filter((s) => payerFormularyOf.has(`${payer.id}|${s}|${program}`) || formularyOf.has(`${s}|${program}`)).sort();
      if (!states.length) continue;
      const formularies = states.map((s) => formularyById.get(payerFormularyOf.get(`${payer.id}|${s}|${program}`) ?? formularyOf.get(`${s}|${program}`)!)!);
      const telecom = [
        ...(payer.url ? [{ system: 'url' as const, value: payer.url }] : []),
        ...payer.contacts.flatMap((c) => [...(c.url ? [{ system: 'url' as const, value: c.url }] : []), ...(c.phone ? [{ system: 'phone' as const, value: c.phone }] : [])]),
      ];
      states.forEach((s) => usedStates.add(s));
      add(
        plans,
        payerPlan({
          id: safeId('payerplan', payer.id, program),
          identifier: `${payer.id}/${program}`,
          name: `${payer.name}: ${PROGRAM_LABELS[program]}`,
          program,
          states,
          formularies,
          contact: telecom.length ? [{ name: { text: payer.name }, telecom }] : undefined,
        }),
        { states, programs: [program] },
      );
    }
  }
  for (const state of [...usedStates].sort()) {
    const j = model.jurisdictions.get(state);
    const region = regionOf(state);
    add(
      locations,
      {
        resourceType: 'Location',
        id: locationId(state),
        meta: { lastUpdated: `${j?.verification.lastVerified ?? model.lastVerified ?? '1970-01-01'}T00:00:00Z`, profile: [USDF_PROFILE.insurancePlanLocation] },
        ...(region ? { extension: [region] } : {}),
        name: stateName(state),
        address: { state, country: 'US' },
      },
      { states: [state], programs: [] },
    );
  }
  const byId = (a: Resource, b: Resource) => (a.id! < b.id! ? -1 : a.id! > b.id! ? 1 : 0);
  return {
    byType: new Map<'InsurancePlan' | 'Basic' | 'MedicationKnowledge' | 'Location', UsdfResource[]>([
      ['InsurancePlan', plans.sort(byId)],
      ['Basic', items.sort(byId)],
      ['MedicationKnowledge', drugs.sort(byId)],
      ['Location', locations.sort(byId)],
    ]),
    byRef,
    scopeOf,
    scopeByResource,
    formularyOf,
  };
}
