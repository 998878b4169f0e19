// The coverage explorer's grid: for one program, each jurisdiction's status per subject (verified, sample, gap).
// Derived from the served program-level rules, the same set the manifest's verified coverage counts, so the grid's
// totals equal coverage.verified.by_state and by_program. A subject outside the program's benefit (a non-drug service
// under Part D) is not a column: no rule will ever fill it.
import { ruleKey, type ReadModel } from '../corpus/read-model.js';
import {
  DRUG_CLASSES,
  DRUG_CLASS_LABELS,
  JURISDICTIONS,
  SERVICE_CATEGORIES,
  SERVICE_CATEGORY_LABELS,
  type Program,
  type SubjectKind,
} from '../domain/vocabulary.js';
import { outsideProgram } from '../domain/program-scope.js';
import { isNotCovered } from '../domain/coverage-exclusion.js';

export type CellStatus = 'verified' | 'sample' | 'gap';

export interface CoverageGrid {
  program: Program;
  served_statuses: string[];
  subjects: { kind: SubjectKind; code: string; label: string }[];
  /** One row per jurisdiction; `cells[i]` is the status of `subjects[i]`. */
  states: { state: string; name: string; verified: number; sample: number; cells: CellStatus[]; not_covered: string[]; applies_to: Record<string, string> }[];
  totals: Record<CellStatus, number>;
}

const SUBJECTS: CoverageGrid['subjects'] = [
  ...DRUG_CLASSES.map((code) => ({ kind: 'drug' as const, code, label: DRUG_CLASS_LABELS[code] })),
  ...SERVICE_CATEGORIES.map((code) => ({ kind: 'service' as const, code, label: SERVICE_CATEGORY_LABELS[code] })),
];

const memo = new WeakMap<ReadModel, Map<Program, CoverageGrid>>();

export function coverageGrid(model: ReadModel, program: Program): CoverageGrid {
  const perModel = memo.get(model) ?? new Map<Program, CoverageGrid>();
  memo.set(model, perModel);
  const hit = perModel.get(program);
  if (hit) return hit;
  const totals: Record<CellStatus, number> = { verified: 0, sample: 0, gap: 0 };
  const subjects = SUBJECTS.filter((s) => !outsideProgram(program, s));
  const states = JURISDICTIONS.map((state) => {
    // The subjects whose served rule says the program does not cover them: still a verified cell, marked apart.
    const notCovered: string[] = [];
    // The subjects whose rule speaks for a population only (members under 18, adults): the cell says whom.
    const appliesTo: Record<string, string> = {};
    const cells = subjects.map(({ kind, code }): CellStatus => {
      const rule = model.rules.get(ruleKey(state, program, kind, code));
      const status = rule?.verification.status;
      if (status !== 'verified' && status !== 'sample') return 'gap';
      if (isNotCovered(rule!)) notCovered.push(code);
      if (rule!.requirement.population) appliesTo[code] = rule!.requirement.population;
      return status;
    });
    for (const c of cells) totals[c]++;
    return {
      state,
      name: model.jurisdictions.get(state)?.name ?? state,
      verified: cells.filter((c) => c === 'verified').length,
      sample: cells.filter((c) => c === 'sample').length,
      cells,
      not_covered: notCovered,
      applies_to: appliesTo,
    };
  });
  const grid = { program, served_statuses: [...model.servedStatuses], subjects, states, totals };
  perModel.set(program, grid);
  return grid;
}
