// Staleness: how long ago each served rule was last verified. The spec promises daily updates; a rule whose
// last_verified is older than the threshold needs re-verification. Pure over the read model and a clock.
import type { ReadModel } from '../corpus/read-model.js';
import type { CoverageRuleDoc } from '../domain/documents.js';
import type { Program } from '../domain/vocabulary.js';

export const DEFAULT_STALE_DAYS = 7;
const DAY_MS = 86_400_000;

export function ageDays(lastVerified: string, now: Date): number {
  const verified = Date.parse(`${lastVerified}T00:00:00Z`);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Math.max(0, Math.round((today - verified) / DAY_MS));
}

function median(sorted: readonly number[]): number | null {
  if (!sorted.length) return null;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface AgeSummary {
  oldest_last_verified: string | null;
  oldest_age_days: number | null;
  median_age_days: number | null;
}

/** Oldest and median age of a set of rules (the manifest reports these for the whole corpus). */
export function ageSummary(rules: Iterable<CoverageRuleDoc>, now: Date): AgeSummary {
  const dates: string[] = [];
  for (const r of rules) dates.push(r.verification.lastVerified);
  if (!dates.length) return { oldest_last_verified: null, oldest_age_days: null, median_age_days: null };
  dates.sort();
  const ages = dates.map((d) => ageDays(d, now)).sort((a, b) => a - b);
  return { oldest_last_verified: dates[0]!, oldest_age_days: ageDays(dates[0]!, now), median_age_days: median(ages) };
}

export interface StalenessOptions {
  days: number;
  limit: number;
  state?: string;
  program?: Program;
}

export function stalenessReport(model: ReadModel, now: Date, o: StalenessOptions): Record<string, unknown> {
  const rules = [...model.ruleById.values()].filter((r) => (!o.state || r.jurisdiction === o.state) && (!o.program || r.program === o.program));
  const groups = new Map<string, { state: string; program: string; stale: number; total: number; oldest_last_verified: string }>();
  const stale: { rule: CoverageRuleDoc; age: number }[] = [];
  for (const rule of rules) {
    const age = ageDays(rule.verification.lastVerified, now);
    const key = `${rule.jurisdiction}|${rule.program}`;
    const g = groups.get(key) ?? { state: rule.jurisdiction, program: rule.program, stale: 0, total: 0, oldest_last_verified: rule.verification.lastVerified };
    g.total++;
    if (rule.verification.lastVerified < g.oldest_last_verified) g.oldest_last_verified = rule.verification.lastVerified;
    if (age > o.days) {
      g.stale++;
      stale.push({ rule, age });
    }
    groups.set(key, g);
  }
  stale.sort((a, b) => b.age - a.age || (a.rule.id < b.rule.id ? -1 : 1));
  return {
    as_of: now.toISOString().slice(0, 10),
    threshold_days: o.days,
    ...(o.state ? { state: o.state } : {}),
    ...(o.program ? { program: o.program } : {}),
    verified_rules: rules.length,
    stale_rules: stale.length,
    ...ageSummary(rules, now),
    groups: [...groups.values()]
      .filter((g) => g.stale > 0)
      .sort((a, b) => b.stale - a.stale || (a.oldest_last_verified < b.oldest_last_verified ? -1 : 1) || (a.state + a.program < b.state + b.program ? -1 : 1)),
    rules: stale.slice(0, o.limit).map(({ rule, age }) => ({
      rule_id: rule.id,
      state: rule.jurisdiction,
      program: rule.program,
      kind: rule.subject.kind,
      subject: rule.subject.code,
      ...(rule.payer ? { payer_id: rule.payer.id } : {}),
      last_verified: rule.verification.lastVerified,
      age_days: age,
      source_url: rule.source.url,
    })),
  };
}
