// The appeal ladders of the seven programs, as data. Every fact comes from ../shared/reference/regulatory-facts.md
// ("Appeal ladders and deadlines"), which marks each one [C] (seen in an official or regulation-text source) or
// [M] (from memory, not yet confirmed). A [M] fact is served with lower confidence and a caveat saying so; no
// CFR section is cited here that the reference does not name.
import type { Program, SubjectKind } from '../../domain/vocabulary.js';
import type { CoverageRuleDoc } from '../../domain/documents.js';
import type { ReadModel } from '../../corpus/read-model.js';
import { carvedOutTo, chipInPlans } from '../../corpus/program-gap.js';

/** [C] -> confirmed, [M] -> unconfirmed. */
export type FactStatus = 'confirmed' | 'unconfirmed';

export const FACT_CONFIDENCE: Readonly<Record<FactStatus, number>> = { confirmed: 0.9, unconfirmed: 0.5 };

export const UNCONFIRMED_CAVEAT =
  'Unconfirmed deadline: this fact is marked [M] (from memory) in the service reference and has not yet been checked against the regulation text. Confirm it on the denial notice or with the plan before relying on it.';

export interface Citation {
  title: string;
  /** null when the reference names the source but no address was verified. */
  url: string | null;
}

const ecfr = (section: string): Citation => ({
  title: `42 CFR ${section}`,
  url: `https://www.ecfr.gov/current/title-42/section-${section.replace(/\(.*$/, '')}`,
});
const MA_RECON: Citation = {
  title: 'CMS: Reconsideration by the Medicare Advantage (Part C) Health Plan',
  url: 'https://www.cms.gov/Medicare/Appeals-and-Grievances/MMCAG/PartCRecon.html',
};

export interface Clock {
  text: string;
  /** Hours when the clock is a fixed number of hours or calendar days; null for working days or unknown. */
  hours: number | null;
  status: FactStatus;
}

export interface LadderStep {
  level: number;
  name: string;
  /** The filing window, counted in calendar days from `from`; null when the reference gives none. */
  filing: { days: number; from: string; status: FactStatus } | null;
  /** True when nobody files: the case moves up automatically (the MA Independent Review Entity). */
  automatic?: boolean;
  decision: { standard: Clock | null; expedited: Clock | null };
  citations: Citation[];
}

export interface ContinuedBenefits {
  days: number;
  from: string;
  condition: string;
  status: FactStatus;
  citations: Citation[];
}

export interface AppealLadder {
  program: Program;
  summary: string;
  steps: readonly LadderStep[];
  continuedBenefits: ContinuedBenefits | null;
  /** Status of the ladder's structure as a whole (later levels are often [M]). */
  status: FactStatus;
  notes?: string;
}

const hours = (h: number, text: string, status: FactStatus): Clock => ({ text, hours: h, status });

/** The State fair hearing decision clock: ordinarily 90 days, 3 working days when expedited (431.244(f), [C]). */
const FAIR_HEARING_DECISION: LadderStep['decision'] = {
  standard: hours(90 * 24, 'ordinarily within 90 days', 'confirmed'),
  expedited: { text: '3 working days for expedited-eligible cases', hours: null, status: 'confirmed' },
};

/** The federal levels after the Medicare reviews (from memory, [M]): no filing window or clock recorded. */
const ALJ_COUNCIL_COURT: LadderStep = {
  level: 3,
  name: 'Administrative Law Judge, then the Medicare Appeals Council, then federal court',
  filing: null,
  decision: { standard: null, expedited: null },
  citations: [],
};

const MEDICAID_MCO: AppealLadder = {
  program: 'medicaid_mco',
  summary: 'Appeal to the MCO, then a State fair hearing.',
  status: 'unconfirmed',
  steps: [
    {
      level: 1,
      name: 'Appeal to the Medicaid managed care plan (MCO)',
      filing: { days: 60, from: 'the date of the adverse benefit determination notice', status: 'unconfirmed' },
      decision: {
        standard: hours(30 * 24, '30 calendar days', 'unconfirmed'),
        expedited: hours(72, '72 hours', 'unconfirmed'),
      },
      citations: [ecfr('438.402'), ecfr('438.408')],
    },
    {
      level: 2,
      name: 'State fair hearing',
      filing: { days: 120, from: "the date of the MCO's appeal resolution notice", status: 'unconfirmed' },
      decision: FAIR_HEARING_DECISION,
      citations: [ecfr('431.244(f)')],
    },
  ],
  continuedBenefits: {
    days: 10,
    from: 'the date of the notice (or before the action takes effect)',
    condition: 'Applies when the decision ends, suspends or reduces a service that was already authorized, and the appeal asks for benefits to continue.',
    status: 'unconfirmed',
    citations: [ecfr('438.420')],
  },
};

const MEDICAID_FFS: AppealLadder = {
  program: 'medicaid_ffs',
  summary: 'State fair hearing with the Medicaid agency.',
  status: 'unconfirmed',
  steps: [
    {
      level: 1,
      name: 'State fair hearing',
      filing: { days: 90, from: 'the date of the notice (a reasonable time, not over 90 days)', status: 'unconfirmed' },
      decision: FAIR_HEARING_DECISION,
      citations: [ecfr('431.221(d)'), ecfr('431.244(f)')],
    },
  ],
  continuedBenefits: {
    days: 10,
    from: 'the date of the action (counted here from the notice date you gave)',
    condition: 'Services are reinstated when the hearing is requested within 10 days of the action that ended or reduced them.',
    status: 'confirmed',
    citations: [ecfr('431.231')],
  },
};

const MEDICARE_ADVANTAGE: AppealLadder = {
  program: 'medicare_advantage',
  summary: 'Reconsideration by the plan; an unfavorable decision goes automatically to the Independent Review Entity; then ALJ, Medicare Appeals Council, federal court.',
  status: 'confirmed',
  steps: [
    {
      level: 1,
      name: 'Reconsideration by the Medicare Advantage plan',
      filing: { days: 60, from: 'the date of the organization-determination notice', status: 'confirmed' },
      decision: {
        standard: hours(30 * 24, '30 calendar days standard pre-service (7 calendar days for a Part B drug; 60 days for payment)', 'confirmed'),
        expedited: hours(72, '72 hours', 'confirmed'),
      },
      citations: [MA_RECON],
    },
    {
      level: 2,
      name: 'Independent Review Entity (automatic when the plan upholds its denial)',
      filing: null,
      automatic: true,
      decision: { standard: null, expedited: null },
      citations: [MA_RECON],
    },
    ALJ_COUNCIL_COURT,
  ],
  continuedBenefits: null,
  notes: 'Levels after the Independent Review Entity are from memory ([M]).',
};

const PART_D: AppealLadder = {
  program: 'part_d',
  summary: 'Coverage determination (72 h standard / 24 h expedited), then redetermination by the plan sponsor, then the Independent Review Entity, ALJ, Council, court.',
  status: 'unconfirmed',
  steps: [
    {
      level: 1,
      name: 'Redetermination by the Part D plan sponsor',
      filing: { days: 60, from: 'the date of the coverage determination notice', status: 'unconfirmed' },
      decision: {
        standard: hours(7 * 24, '7 days', 'unconfirmed'),
        expedited: hours(72, '72 hours', 'unconfirmed'),
      },
      citations: [ecfr('423.568'), ecfr('423.572')],
    },
    {
      level: 2,
      name: 'Independent Review Entity, then ALJ, Medicare Appeals Council, federal court',
      filing: null,
      decision: { standard: null, expedited: null },
      citations: [],
    },
  ],
  continuedBenefits: null,
  notes: 'The coverage-determination clocks (72 h standard / 24 h expedited; 42 CFR 423.568/423.572) are confirmed; the redetermination window and clocks are [M].',
};

const MEDICARE_TRADITIONAL: AppealLadder = {
  program: 'medicare_traditional',
  summary: 'Redetermination by the Medicare Administrative Contractor (MAC), reconsideration by a Qualified Independent Contractor (QIC), then ALJ, Council, court.',
  status: 'unconfirmed',
  steps: [
    {
      level: 1,
      name: 'Redetermination by the Medicare Administrative Contractor (MAC)',
      filing: { days: 120, from: 'the date of the initial determination', status: 'unconfirmed' },
      decision: { standard: null, expedited: null },
      citations: [],
    },
    {
      level: 2,
      name: 'Reconsideration by a Qualified Independent Contractor (QIC)',
      filing: { days: 180, from: 'the date of the redetermination notice', status: 'unconfirmed' },
      decision: { standard: null, expedited: null },
      citations: [],
    },
    ALJ_COUNCIL_COURT,
  ],
  continuedBenefits: null,
  notes: 'No expedited clock for the MAC redetermination is recorded in the reference.',
};

const CHIP: AppealLadder = {
  program: 'chip',
  summary: 'State review process; timeframes are state-specific.',
  status: 'confirmed',
  steps: [
    {
      level: 1,
      name: 'State CHIP review',
      filing: null,
      decision: { standard: null, expedited: null },
      citations: [{ title: '42 CFR 457.1130-457.1170', url: 'https://www.ecfr.gov/current/title-42/section-457.1130' }],
    },
  ],
  continuedBenefits: null,
  notes: 'The review process exists under 42 CFR 457.1130-457.1170 ([C]); its timeframes are set by each state, so no deadline is computed.',
};

const DUAL_ELIGIBLE: AppealLadder = {
  program: 'dual_eligible',
  summary: 'Integrated appeals in applicable integrated plans (D-SNPs with exclusively aligned enrollment); otherwise the Medicare and Medicaid ladders run side by side.',
  status: 'unconfirmed',
  steps: [
    {
      level: 1,
      name: 'Appeal to the plan (integrated appeal, or the first level of the Medicare and Medicaid ladders side by side)',
      // Both first levels the reference lists (MA reconsideration, Medicaid MCO appeal) are 60 days.
      filing: { days: 60, from: 'the date of the denial notice', status: 'unconfirmed' },
      decision: { standard: null, expedited: hours(72, '72 hours (both ladders list 72 hours expedited)', 'unconfirmed') },
      citations: [MA_RECON, ecfr('438.402')],
    },
  ],
  continuedBenefits: null,
  notes: 'For a Medicaid-covered service, the Medicaid ladder (including continued benefits) may apply instead; check the notice.',
};

export const APPEAL_LADDERS: Readonly<Record<Program, AppealLadder>> = {
  medicaid_mco: MEDICAID_MCO,
  medicaid_ffs: MEDICAID_FFS,
  medicare_advantage: MEDICARE_ADVANTAGE,
  medicare_traditional: MEDICARE_TRADITIONAL,
  dual_eligible: DUAL_ELIGIBLE,
  part_d: PART_D,
  chip: CHIP,
};

export const ladderFor = (program: Program): AppealLadder => APPEAL_LADDERS[program];

/**
 * CHIP children served by managed care plans (a CHIP rule handed over to Medicaid managed care): 42 CFR 457.1260 has
 * the plans follow the appeal rules of 42 CFR part 438 subpart F, except that 438.420 (continued benefits) does not
 * apply and a fair hearing is read as the state's CHIP review (subpart K). So: appeal to the plan, then the state review.
 */
export const CHIP_MANAGED_CARE: AppealLadder = {
  program: 'chip',
  summary: 'Appeal to the CHIP managed care plan (42 CFR 457.1260, part 438 subpart F), then the State CHIP review; no continued benefits (438.420 does not apply to CHIP).',
  status: 'unconfirmed',
  steps: [
    { ...MEDICAID_MCO.steps[0]!, name: 'Appeal to the managed care plan (CHIP)', citations: [ecfr('457.1260'), ...MEDICAID_MCO.steps[0]!.citations] },
    { ...CHIP.steps[0]!, level: 2, citations: [ecfr('457.1260'), ...CHIP.steps[0]!.citations] },
  ],
  continuedBenefits: null,
  notes: 'The state review after the plan appeal is set by each state (42 CFR 457.1130-457.1170), so no deadline is computed for it.',
};

/**
 * The appeal ladder of the program that decides a request: a hand-over's rule is another program's (a dual's drugs:
 * Part D), and a gap in a carved-out kind is decided where the kind's rules are. CHIP keeps its own ladder even where
 * its rule is Medicaid managed care's: 42 CFR 457.1260 applies the plan appeal rules without 438.420's continued
 * benefits, and the state's CHIP review in place of a fair hearing.
 */
export function ladderOf(model: ReadModel, q: { state: string; program: Program; subject: { kind: SubjectKind; code?: string } }, rule: CoverageRuleDoc | null): AppealLadder {
  // An MA plan's drug benefit is Part D coverage (MA-PD): its denials are coverage determinations, appealed by Part D
  // redetermination (42 CFR 423 subpart M), not MA reconsideration; Part B drugs (specialty_drugs) stay with MA.
  if (q.program === 'medicare_advantage' && (q.subject.kind === 'drug' || q.subject.code === 'pharmacy_standard')) return ladderFor('part_d');
  if (q.program !== 'chip') return ladderFor(rule?.decidedBy ?? carvedOutTo(model, q.state, q.program, q.subject.kind) ?? q.program);
  const inPlans = rule ? rule.decidedBy === 'medicaid_mco' : chipInPlans(model, q.state);
  return inPlans ? CHIP_MANAGED_CARE : ladderFor('chip');
}
