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

/**
 * Where no rule covers a subject, the program that decides its kind anyway: when every served rule of this state,
 * program and subject kind is decided by one other program (a pharmacy carve-out encoded as decided_by, read twice),
 * a gap of the same kind is decided there too (MO managed care drugs: MO HealthNet fee-for-service).
 */
export function carvedOutTo(model: ReadModel, state: string, program: Program, kind: SubjectKind): Program | undefined {
  const same = (model.rulesByState.get(state) ?? []).filter((r) => r.program === program && r.subject.kind === kind);
  const deciders = new Set(same.map((r) => r.decidedBy));
  const only = deciders.size === 1 ? [...deciders][0] : undefined;
  return only && only !== program ? only : undefined;
}

/** Whether a served rule puts the state's CHIP children in the Medicaid managed care plans (a CHIP hand-over). */
export function chipInPlans(model: ReadModel, state: string): boolean {
  return (model.rulesByState.get(state) ?? []).some((r) => r.program === 'chip' && r.decidedBy === 'medicaid_mco');
}
