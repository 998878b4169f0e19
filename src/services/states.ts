// Spec 2.7: the jurisdictions list (counts, PA-required share, policy flags) and the per-state detail.
import { isNotCovered } from '../domain/coverage-exclusion.js';
import type { CoverageRuleDoc, JurisdictionDoc } from '../domain/documents.js';
import { DRUG_CLASSES, JURISDICTIONS, PA_TYPES, PROGRAMS, SERVICE_CATEGORIES } from '../domain/vocabulary.js';
import type { ReadModel } from '../corpus/read-model.js';

function flagsOf(j: JurisdictionDoc | undefined): { medicaid_expansion: boolean | null; ffs_dominant: boolean | null; wiser: boolean | null } {
  return {
    medicaid_expansion: j?.flags.medicaidExpansion ?? null,
    ffs_dominant: j?.flags.ffsDominant ?? null,
    wiser: j?.flags.wiser ?? null,
  };
}

const pct = (part: number, whole: number): number => (whole ? Math.round((part / whole) * 1000) / 10 : 0);

function latest(rules: readonly CoverageRuleDoc[]): string | null {
  let best: string | null = null;
  for (const r of rules) if (!best || r.verification.lastVerified > best) best = r.verification.lastVerified;
  return best;
}

export function listStates(model: ReadModel): { states: Record<string, unknown>[]; total: number } {
  const states = JURISDICTIONS.map((code) => {
    const j = model.jurisdictions.get(code);
    const rules = model.rulesByState.get(code) ?? [];
    const required = rules.filter((r) => r.requirement.paRequired).length;
    return {
      state_abbr: code,
      name: j?.name ?? code,
      rule_count: rules.length,
      drug_rules: rules.filter((r) => r.subject.kind === 'drug').length,
      service_rules: rules.filter((r) => r.subject.kind === 'service').length,
      pa_required_pct: pct(required, rules.length),
      flags: flagsOf(j),
    };
  });
  return { states, total: states.length };
}

type Counts = { rules: number; pa_required: number; not_covered: number };

function countBy(rules: readonly CoverageRuleDoc[], kind: 'drug' | 'service', codes: readonly string[]): Record<string, Counts> {
  const out: Record<string, Counts> = {};
  for (const code of codes) out[code] = { rules: 0, pa_required: 0, not_covered: 0 };
  for (const r of rules) {
    if (r.subject.kind !== kind) continue;
    const c = out[r.subject.code];
    if (!c) continue;
    c.rules++;
    if (r.requirement.paRequired) c.pa_required++;
    // An exclusion is not "no PA": it is counted apart, so a class that a program does not cover does not read as free.
    if (isNotCovered(r)) c.not_covered++;
  }
  return out;
}

export function stateDetail(model: ReadModel, code: string): Record<string, unknown> {
  const j = model.jurisdictions.get(code);
  const rules = model.rulesByState.get(code) ?? [];
  const histogram = Object.fromEntries(PA_TYPES.map((t) => [t, 0])) as Record<string, number>;
  for (const r of rules) histogram[r.requirement.paType] = (histogram[r.requirement.paType] ?? 0) + 1;
  const federal = [...new Set(rules.filter((r) => r.federalOverride && r.subject.kind === 'drug').map((r) => r.subject.code))].sort();
  return {
    state_abbr: code,
    name: j?.name ?? code,
    flags: flagsOf(j),
    summary: {
      total_rules: rules.length,
      pa_required: rules.filter((r) => r.requirement.paRequired).length,
      pa_required_pct: pct(rules.filter((r) => r.requirement.paRequired).length, rules.length),
      not_covered: rules.filter(isNotCovered).length,
      programs_covered: PROGRAMS.filter((p) => rules.some((r) => r.program === p)),
      pa_type_histogram: histogram,
      federal_protected_drug_classes: federal,
      last_verified: latest(rules),
    },
    service_categories: countBy(rules, 'service', SERVICE_CATEGORIES),
    drug_classes: countBy(rules, 'drug', DRUG_CLASSES),
    state_meta: j
      ? {
          agency: j.medicaidAgency,
          medicaid_program_name: j.medicaidProgramName ?? null,
          chip_program_name: j.chipProgramName ?? null,
          mco_brands: j.mcoBrands,
          carve_outs: j.carveOuts,
          wiser: {
            participating: j.flags.wiser,
            model: 'WISeR (Wasteful and Inappropriate Service Reduction), Original Medicare only',
            period: j.flags.wiser ? { start: '2026-01-01', end: '2031-12-31' } : null,
          },
          primary_sources: j.sources,
          contacts: j.contacts,
          confidence: j.verification.confidence,
          last_verified: j.verification.lastVerified,
        }
      : null,
  };
}
