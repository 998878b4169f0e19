// Derives the served fields and the verification status of every program-level rule from the curated facts
// (corpus/facts/FORMAT.md, "How a rule is derived"). The generator's own content is the sample fallback: a rule is
// `verified` only when its requirement, and unless no PA applies its submission route, rest on facts that two readers
// checked against official sources; every other rule is `sample`, its caveat saying what is missing. A decision clock
// is served only from a fact: a verified rule without one says that no timeframe was traced (0 h, with that basis),
// never the generator's assumed clock.
import type { CoverageRuleDoc, Evidence } from '../../../src/domain/documents.js';
import { distinctItems } from '../../../src/domain/distinct-items.js';
import type { Fact } from './load.js';

/** The first day of the current plan year: a source dated before it is served with lowered confidence. */
export const PLAN_YEAR_START = '2026-01-01';
export const VERIFIED_CONFIDENCE = 0.9;
/** An undated source: it may be a living page kept current, or an old one; as low as a source two years old. */
export const UNDATED_SOURCE_CONFIDENCE = 0.7;

/**
 * A verified rule's confidence from the age of its oldest dated source (whole years before the plan year's start) and
 * whether any source is undated: current 0.9; one year old 0.8; two to four years or undated 0.7; five to nine 0.6;
 * ten or more 0.5. The caveat names the oldest date either way.
 */
export function sourceAgeConfidence(oldest: string | undefined, undated: boolean): number {
  const years = oldest ? Number(PLAN_YEAR_START.slice(0, 4)) - Number(oldest.slice(0, 4)) : 0;
  const byAge = years <= 0 ? VERIFIED_CONFIDENCE : years === 1 ? 0.8 : years <= 4 ? 0.7 : years <= 9 ? 0.6 : 0.5;
  return Math.min(byAge, undated ? UNDATED_SOURCE_CONFIDENCE : VERIFIED_CONFIDENCE);
}
export const SAMPLE_WITH_FACTS_CONFIDENCE = 0.6;
export const NOT_COVERED_TARGET = 'Not covered: no prior authorization request leads to coverage';
export const NOT_COVERED_BASIS = 'Not covered: no prior authorization decision applies';
export const NO_CLOCK_BASIS = 'No decision timeframe traced to an official source for this rule yet; ask the payer when it will decide.';

/** A served rule's criteria limit (the ingest schema's). */
const MAX_CRITERIA = 4000;
/** A served exclusion's citation limit (the ingest schema's). */
const MAX_CITATION = 500;
/** A served population's limit (the ingest schema's). */
const MAX_POPULATION = 200;

const GROUPS = ['requirement', 'submission', 'clock', 'effective'] as const;
type Group = (typeof GROUPS)[number];

export interface ApplyReport {
  verified: number;
  /** Rules that use at least one fact but are not verified (a field or a second read missing). */
  partial: number;
  /** Rules whose code-level status was verified and that no fact backs: now sample. */
  demoted: string[];
  /** Facts that matched no rule (for example a program the state does not run). */
  unused: string[];
  /** Facts a second reader disputed: never applied (a known-questionable claim is not served, even as sample). */
  disputed: string[];
  errors: string[];
}

/** How specific a fact is for a rule: an explicit subject beats a kind-wide one; a named state beats "all". */
function specificity(f: Fact): number {
  return (Array.isArray(f.subjects) ? 2 : 0) + (f.jurisdictions === 'all' ? 0 : 1);
}

/** A program-level rule's place: the jurisdiction, program and subject a fact may cover. */
type Place = Pick<CoverageRuleDoc, 'jurisdiction' | 'program'> & { subject: Pick<CoverageRuleDoc['subject'], 'code' | 'kind'> };

function covers(f: Fact, at: Place): boolean {
  if (f.jurisdictions !== 'all' && !f.jurisdictions.includes(at.jurisdiction)) return false;
  if (!f.programs.includes(at.program)) return false;
  return Array.isArray(f.subjects) ? f.subjects.includes(at.subject.code) : (f.subjects as { kind: string }).kind === at.subject.kind;
}

const placeName = (at: Place): string => `${at.jurisdiction}/${at.program}/${at.subject.code}`;

const reviewed = (f: Fact): boolean => !!f.review.second_read && !f.review.disputed;

function toEvidence(f: Fact): Evidence[] {
  return f.evidence.map((e) => ({
    url: e.source.url, title: e.source.title, publisher: e.source.publisher,
    ...(e.source.date ? { effective: e.source.date } : {}),
    locator: e.locator, checked: f.checked,
  }));
}

export function applyFacts(rules: readonly CoverageRuleDoc[], facts: readonly Fact[]): { rules: CoverageRuleDoc[]; report: ApplyReport } {
  const report: ApplyReport = { verified: 0, partial: 0, demoted: [], unused: [], disputed: [], errors: [] };
  const used = new Set<string>();
  const byProgram = new Map<string, Fact[]>();
  const handOversByProgram = new Map<string, Fact[]>();
  for (const f of facts) {
    if (f.review.disputed) { report.disputed.push(f.ref); continue; }
    const index = f.follows ? handOversByProgram : byProgram;
    for (const p of f.programs) (index.get(p) ?? index.set(p, []).get(p)!).push(f);
  }

  /** The most specific of the facts at a place; two of equal specificity are a build error (`what` they both do). */
  function mostSpecific(at: Place, facts: readonly Fact[], what: string): Fact | undefined {
    const top = Math.max(...facts.map(specificity));
    const best = facts.filter((f) => specificity(f) === top);
    if (best.length === 1) return best[0];
    report.errors.push(`${placeName(at)}: ${best.map((f) => f.ref).join(' and ')} both ${what}`);
    return undefined;
  }

  /** The most specific fact setting each group at a place. */
  function choose(at: Place, candidates: readonly Fact[]): Partial<Record<Group, Fact>> {
    const chosen: Partial<Record<Group, Fact>> = {};
    for (const g of GROUPS) {
      const withGroup = candidates.filter((f) => f[g] !== undefined);
      const best = withGroup.length ? mostSpecific(at, withGroup, `set ${g}`) : undefined;
      if (best) chosen[g] = best;
    }
    // Where the requirement fact says no PA applies, no route or clock is served, so none is used (or needed).
    if (chosen.requirement?.requirement?.pa_type === 'none') {
      delete chosen.submission;
      delete chosen.clock;
    }
    return chosen;
  }

  /**
   * The facts that decide a place: its own program's facts, or, where a hand-over (`follows`) covers it, the facts of
   * the followed program at the same jurisdiction and subject (followed in turn where that one hands over too).
   */
  function resolve(at: Place, seen: readonly string[]): { chosen: Partial<Record<Group, Fact>>; handOvers: Fact[] } {
    const own = (byProgram.get(at.program) ?? []).filter((f) => covers(f, at));
    const handOvers = (handOversByProgram.get(at.program) ?? []).filter((f) => covers(f, at));
    if (!handOvers.length) return { chosen: choose(at, own), handOvers: [] };
    if (own.length) {
      report.errors.push(`${placeName(at)}: ${handOvers.map((f) => f.ref).join(', ')} hand(s) it to another program, but ${own.map((f) => f.ref).join(', ')} cover(s) it too (narrow the subjects)`);
      return { chosen: {}, handOvers: [] };
    }
    const best = mostSpecific(at, handOvers, 'hand it over');
    if (!best) return { chosen: {}, handOvers: [] };
    const next: Place = { jurisdiction: at.jurisdiction, program: best.follows!, subject: at.subject };
    if (seen.includes(next.program)) {
      report.errors.push(`${placeName(at)}: hand-overs loop (${[...seen, at.program, next.program].join(' -> ')})`);
      return { chosen: {}, handOvers: [] };
    }
    const followed = resolve(next, [...seen, at.program]);
    return { chosen: followed.chosen, handOvers: [best, ...followed.handOvers] };
  }

  const out = rules.map((rule) => {
    if (rule.payer) {
      // Payer-level rules are not derived from facts (yet): never verified.
      if (rule.verification.status !== 'verified') return rule;
      report.demoted.push(rule.id);
      return { ...rule, verification: { ...rule.verification, status: 'sample' as const, confidence: Math.min(rule.verification.confidence, SAMPLE_WITH_FACTS_CONFIDENCE), caveat: 'Payer-level rule not traced to curated facts.' } };
    }
    const { chosen, handOvers } = resolve(rule, []);
    for (const f of [...handOvers, ...Object.values(chosen)]) used.add(f.ref);
    return derive(rule, chosen, handOvers, report);
  });
  for (const f of facts) if (!used.has(f.ref) && !f.review.disputed) report.unused.push(f.ref);
  return { rules: out, report };
}

/**
 * Whom a derived rule applies to: the hand-overs' people (each narrower than the last), then the followed requirement's
 * own population within them. Undefined when neither limits it.
 */
function populationOf(handOvers: readonly Fact[], own: string | undefined): string | undefined {
  const parts = [...handOvers.map((f) => f.population).filter((p): p is string => !!p), ...(own ? [own] : [])];
  return parts.length ? parts.join('; among them, ') : undefined;
}

/**
 * A rule from the facts chosen for it. `handOvers` are the follows facts that led to the chosen facts' program: their
 * scope statements go before the criteria, their evidence before the rule's, and they must be reviewed too.
 */
function derive(rule: CoverageRuleDoc, chosen: Partial<Record<Group, Fact>>, handOvers: readonly Fact[], report: ApplyReport): CoverageRuleDoc {
  const factsUsed = [...new Set([...handOvers, ...Object.values(chosen)])];
  if (!factsUsed.length) {
    if (rule.verification.status !== 'verified') return rule;
    report.demoted.push(rule.id);
    return {
      ...rule,
      verification: {
        ...rule.verification, status: 'sample', confidence: Math.min(rule.verification.confidence, SAMPLE_WITH_FACTS_CONFIDENCE),
        caveat: 'Not yet traced to a curated, twice-read fact (corpus/facts); confirm against the source.',
      },
    };
  }
  const next: CoverageRuleDoc = { ...rule, requirement: { ...rule.requirement } };
  // A hand-over's rule is the followed program's (the last one of a chain): its plan decides, its appeals apply.
  if (handOvers.length && Object.keys(chosen).length) next.decidedBy = handOvers[handOvers.length - 1]!.follows!;
  // A carve-out: the requirement's fact says which of its programs decides for the others (FORMAT.md, decided_by).
  const decider = chosen.requirement?.decidedBy;
  if (!handOvers.length && decider && decider !== rule.program) next.decidedBy = decider;
  const req = chosen.requirement?.requirement;
  if (req) {
    const population = populationOf(handOvers, req.population);
    if (population && population.length > MAX_POPULATION) report.errors.push(`${rule.id}: the hand-over's and the requirement's populations together run past ${MAX_POPULATION} characters`);
    const mode = req.pa_mode ?? 'required';
    const none = req.pa_type === 'none';
    next.requirement = {
      paRequired: mode === 'voluntary' ? false : req.pa_required,
      paType: req.pa_type,
      criteria: [...handOvers.map((f) => f.scopeBasis!), req.criteria].join(' '),
      documentation: none ? [] : distinctItems(req.documentation ?? []),
      ...(req.pa_mode ? { paMode: req.pa_mode } : {}),
      ...(req.new_starts_only !== undefined ? { newStartsOnly: req.new_starts_only } : {}),
      ...(population ? { population } : {}),
      ...(req.ages ? { ages: { ...req.ages } } : {}),
      ...(req.step_therapy && !none ? { stepTherapy: req.step_therapy } : {}),
      ...(req.quantity_limit && !none ? { quantityLimit: req.quantity_limit } : {}),
    };
    if (next.requirement.criteria.length > MAX_CRITERIA) report.errors.push(`${rule.id}: criteria with the hand-over's scope_basis run past ${MAX_CRITERIA} characters`);
    if (chosen.requirement!.federalOverride !== undefined) next.federalOverride = chosen.requirement!.federalOverride;
    const firstEvidence = chosen.requirement!.evidence[0];
    const first = firstEvidence.source;
    // An exclusion: every surface says "not covered" (and PAS answers A3) instead of "no PA needed".
    if (req.not_covered) {
      next.requirement.exclusion = { reason: req.criteria, citation: `${first.title}, ${firstEvidence.locator}` };
      if (next.requirement.exclusion.citation.length > MAX_CITATION) report.errors.push(`${rule.id}: the exclusion's citation (source title and locator) runs past ${MAX_CITATION} characters`);
    }
    // The rule's source: the text that makes it this program's rule. For a hand-over that is the hand-over's own
    // statement (the state's page putting CHIP children in the plans, or duals' drugs with Part D), not the followed
    // program's text; both stay in the evidence.
    const own = handOvers.length ? handOvers[0]!.evidence[0]!.source : first;
    next.source = { url: own.url, title: own.title, publisher: own.publisher };
    if (none) {
      // An excluded subject has no PA route either, but "no PA request needed" would read as "covered without PA".
      next.submission = { channel: 'none', target: req.not_covered ? NOT_COVERED_TARGET : 'No PA request needed' };
      next.turnaround = { standardHours: 0, expeditedHours: 0, basis: req.not_covered ? NOT_COVERED_BASIS : 'No PA; not applicable' };
    }
  }
  if (req && next.requirement.paType !== 'none') {
    // The generator said no PA here, the fact says otherwise: never serve "no request needed" or a 0-hour "not
    // applicable" clock beside a requirement.
    if (next.submission.channel === 'none') next.submission = { channel: 'phone', target: 'Where to send this request is not yet traced to a source: ask the program (see the source)' };
    if (next.turnaround.standardHours === 0) next.turnaround = { standardHours: 0, expeditedHours: 0, basis: NO_CLOCK_BASIS };
  }
  const sub = chosen.submission?.submission;
  if (sub && next.requirement.paType !== 'none') next.submission = { ...sub };
  const clock = chosen.clock?.clock;
  if (clock && next.requirement.paType !== 'none') next.turnaround = { standardHours: clock.standard_hours, expeditedHours: clock.expedited_hours ?? 0, basis: clock.basis };
  const eff = chosen.effective?.effective;
  if (eff) next.effective = { ...eff };
  else if (req) delete next.effective;

  const missing: string[] = [];
  if (!req) missing.push('the requirement (whether and when PA applies)');
  const needsRoute = next.requirement.paType !== 'none';
  if (needsRoute && !chosen.submission) missing.push('the submission route');
  const unreviewed = factsUsed.filter((f) => !reviewed(f));

  const evidence = dedupe(factsUsed.flatMap(toEvidence));
  next.evidence = evidence;
  const checked = factsUsed.map((f) => f.checked).sort()[0];
  const dates = factsUsed.flatMap((f) => f.evidence.map((e) => e.source.date));
  const old = dates.filter((d): d is string => !!d && d < PLAN_YEAR_START).sort()[0];
  const undated = dates.some((d) => !d);
  const caveats: string[] = [];
  if (old) caveats.push(`A source document is dated ${old}, before the ${PLAN_YEAR_START.slice(0, 4)} plan year; confirm it is still current.`);
  else if (undated) caveats.push('A source document prints no date; confirm it is current.');

  if (!missing.length && !unreviewed.length) {
    report.verified++;
    if (needsRoute && !chosen.clock) next.turnaround = { standardHours: 0, expeditedHours: 0, basis: NO_CLOCK_BASIS };
    next.verification = {
      status: 'verified', lastVerified: checked,
      confidence: sourceAgeConfidence(old, undated),
      by: 'curated-facts', method: 'read from the cited source and confirmed by an independent second reading',
      ...(caveats.length ? { caveat: caveats.join(' ') } : {}),
    };
    return next;
  }
  report.partial++;
  const why: string[] = [];
  if (missing.length) why.push(`not yet traced to a source: ${missing.join(', ')}`);
  if (unreviewed.length) why.push('awaiting an independent second read');
  // Without a requirement fact the generator's own (illustrative) criteria stay, and so does what its caveat says.
  const base = req ? [] : [rule.verification.caveat ?? ''];
  next.verification = {
    status: 'sample', lastVerified: checked,
    confidence: req ? SAMPLE_WITH_FACTS_CONFIDENCE : Math.min(rule.verification.confidence, SAMPLE_WITH_FACTS_CONFIDENCE),
    by: 'curated-facts', method: 'partly traced to curated facts',
    caveat: [...base.filter(Boolean), `Partly verified: ${why.join('; ')}.`, ...caveats].join(' ').slice(0, 1000),
  };
  return next;
}

function dedupe(items: Evidence[]): Evidence[] {
  const seen = new Set<string>();
  return items.filter((e) => {
    const k = `${e.url}|${e.locator}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
