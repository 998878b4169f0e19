// Which subjects a program's benefit can hold at all. One answer for the corpus generator (no rule is made for a
// subject outside the benefit), the lookup's 404 (a gap that will never be filled says so, and where to ask instead)
// and the cross-payer compare (no gap row for a payer whose program cannot cover the subject).
import { PROGRAM_LABELS, type Program, type SubjectKind } from './vocabulary.js';

export interface OutsideProgram {
  /** Why the program has no rule for the subject, in one sentence. */
  reason: string;
  /** The programs that cover the subject instead, for the same person. */
  try_programs: Program[];
}

/** Part D's service categories: the pharmacy benefit and specialty-tier drugs. Its benefit is outpatient drugs. */
const PART_D_SERVICES: ReadonlySet<string> = new Set(['pharmacy_standard', 'specialty_drugs']);

/**
 * Undefined where the program's benefit can hold the subject; otherwise why not and where to ask. Part D covers
 * outpatient prescription drugs (SSA sec. 1860D-2(e), "covered part D drug"), so a non-drug service category is
 * outside it: a Part D enrollee's services are covered by Original Medicare (Parts A and B) or a Medicare Advantage
 * plan.
 */
export function outsideProgram(program: Program, subject: { kind: SubjectKind; code: string }): OutsideProgram | undefined {
  if (program === 'part_d' && subject.kind === 'service' && !PART_D_SERVICES.has(subject.code)) {
    return {
      reason: `${PROGRAM_LABELS.part_d} covers outpatient prescription drugs, not this service: no ${PROGRAM_LABELS.part_d} rule will exist for it. The enrollee's services are covered by Original Medicare (Parts A and B) or a Medicare Advantage plan.`,
      try_programs: ['medicare_traditional', 'medicare_advantage'],
    };
  }
  return undefined;
}
