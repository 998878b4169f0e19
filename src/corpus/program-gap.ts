// Gaps no rule will fill, for one (state, program, subject): the subject is outside the program's benefit
// (domain/program-scope.ts), or the program does not run in the state (Medicaid managed care where the jurisdiction
// record lists no plans). One answer for every surface that says "no rule": the lookup's and the action plan's 404,
// the ask answer's gap items, notify-when-ready's refusal and the CRD card for a request no rule covers.
import type { Program, SubjectKind } from '../domain/vocabulary.js';
import { outsideProgram, type OutsideProgram } from '../domain/program-scope.js';
import type { ReadModel } from './read-model.js';

export interface GapQuery {
  state: string;
  program: Program;
  subject: { kind: SubjectKind; code: string };
}

/** Why no rule will exist for the query, if none will; undefined where a rule may yet be published. */
export function outsideFor(model: ReadModel, q: GapQuery): OutsideProgram | undefined {
  const benefit = outsideProgram(q.program, q.subject);
  if (benefit) return benefit;
  const j = q.program === 'medicaid_mco' ? model.jurisdictions.get(q.state) : undefined;
  if (j && j.mcoBrands.length === 0) {
    return {
      reason: `${j.name} Medicaid has no risk-based managed care plans${j.carveOuts[0] ? ` (${j.carveOuts[0]})` : ''}: its Medicaid rules are fee-for-service.`,
      try_programs: ['medicaid_ffs'],
    };
  }
  return undefined;
}
