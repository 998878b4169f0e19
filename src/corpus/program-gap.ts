// Gaps no rule will fill, for one (state, program, subject): the subject is outside the program's benefit
// (domain/program-scope.ts), or the program does not run in the state (Medicaid managed care where the jurisdiction
// record lists no plans). One answer for every surface that says "no rule": the lookup's and the action plan's 404,
// the ask answer's gap items, notify-when-ready's refusal, compare rows, the DTR and formulary 404s, PAS notes and the
// CRD card for a request no rule covers. Also: which program decides where no rule covers a subject (carve-outs).
import type { CoverageRuleDoc } from '../domain/documents.js';
import type { Program, SubjectKind } from '../domain/vocabulary.js';
import { outsideProgram, type OutsideProgram } from '../domain/program-scope.js';
import type { ReadModel } from './read-model.js';

export interface GapQuery {
  state: string;
  program: Program;
  subject: { kind: SubjectKind; code: string };
}

/** Why the program has no rules at all in the state (Medicaid managed care where it runs no plans), if so. */
export function programNotRun(model: ReadModel, state: string, program: Program): OutsideProgram | undefined {
  const j = program === 'medicaid_mco' ? model.jurisdictions.get(state) : undefined;
  if (!j || j.mcoBrands.length) return undefined;
  return {
    reason: `${j.name} Medicaid has no risk-based managed care plans${j.carveOuts[0] ? ` (${j.carveOuts[0]})` : ''}: its Medicaid rules are fee-for-service.`,
    try_programs: ['medicaid_ffs'],
  };
}

/** Why no rule will exist for the query, if none will; undefined where a rule may yet be published. */
export function outsideFor(model: ReadModel, q: GapQuery): OutsideProgram | undefined {
  return outsideProgram(q.program, q.subject) ?? programNotRun(model, q.state, q.program);
}

/** The sentence a 404 or a note gives for a gap no rule will fill: what, why, and where to ask instead. */
export const noneWillExist = (what: string, outside: OutsideProgram): string =>
  `No rule for ${what}: none will exist. ${outside.reason} Ask ${outside.try_programs.join(' or ')} instead.`;

/** Per read model: the programs that decide the served rules of each state, program and subject kind. */
const decidersIndex = new WeakMap<ReadModel, Map<string, Set<Program | undefined>>>();

function deciders(model: ReadModel, state: string, program: Program, kind?: SubjectKind): ReadonlySet<Program | undefined> {
  let idx = decidersIndex.get(model);
  if (!idx) {
    idx = new Map();
    const add = (key: string, r: CoverageRuleDoc): void => {
      const set = idx!.get(key) ?? new Set<Program | undefined>();
      set.add(r.decidedBy);
      idx!.set(key, set);
    };
    for (const rules of model.rulesByState.values()) {
      for (const r of rules) {
        add(`${r.jurisdiction}|${r.program}|${r.subject.kind}`, r);
        add(`${r.jurisdiction}|${r.program}|*`, r);
      }
    }
    decidersIndex.set(model, idx);
  }
  return idx.get(`${state}|${program}|${kind ?? '*'}`) ?? new Set();
}

/**
 * Where no rule covers a subject, the program that decides its kind anyway: when every served rule of this state,
 * program and subject kind is decided by one other program (a pharmacy carve-out encoded as decided_by, read twice),
 * a gap of the same kind is decided there too (MO managed care drugs: MO HealthNet fee-for-service).
 */
export function carvedOutTo(model: ReadModel, state: string, program: Program, kind: SubjectKind): Program | undefined {
  const set = deciders(model, state, program, kind);
  const only = set.size === 1 ? [...set][0] : undefined;
  return only && only !== program ? only : undefined;
}

/** Whether a served rule puts the state's CHIP children in the Medicaid managed care plans (a CHIP hand-over). */
export function chipInPlans(model: ReadModel, state: string): boolean {
  return deciders(model, state, 'chip').has('medicaid_mco');
}
