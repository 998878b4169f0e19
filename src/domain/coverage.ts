// Verified coverage of the 51 jurisdictions x 7 programs x 40 subjects (spec 2.1): one computation for the build's
// generated table, the CLI's `prauth corpus coverage` and the manifest.
import type { CoverageRuleDoc } from './documents.js';
import { DRUG_CLASSES, JURISDICTIONS, PROGRAMS, SERVICE_CATEGORIES, type Program } from './vocabulary.js';
import { outsideProgram } from './program-scope.js';

export const SUBJECTS_PER_PROGRAM = DRUG_CLASSES.length + SERVICE_CATEGORIES.length;
export const TOTAL_COMBINATIONS = JURISDICTIONS.length * PROGRAMS.length * SUBJECTS_PER_PROGRAM;
/** Combinations outside their program's benefit (program-scope.ts): counted in the total, never to be verified. */
export const OUTSIDE_COMBINATIONS =
  JURISDICTIONS.length *
  PROGRAMS.reduce(
    (n, p) =>
      n +
      DRUG_CLASSES.filter((code) => outsideProgram(p, { kind: 'drug', code })).length +
      SERVICE_CATEGORIES.filter((code) => outsideProgram(p, { kind: 'service', code })).length,
    0,
  );

export interface CoverageTable {
  /** Program-level rules with status verified, per jurisdiction and program (each out of 40 subjects). */
  byState: Record<string, Record<Program, number>>;
  byProgram: Record<Program, number>;
  verified: number;
  total: number;
  percent: number;
}

export function coverageOf(rules: Iterable<Pick<CoverageRuleDoc, 'jurisdiction' | 'program' | 'payer' | 'verification'>>): CoverageTable {
  const zero = (): Record<Program, number> => Object.fromEntries(PROGRAMS.map((p) => [p, 0])) as Record<Program, number>;
  const byState: Record<string, Record<Program, number>> = Object.fromEntries(JURISDICTIONS.map((j) => [j, zero()]));
  const byProgram = zero();
  let verified = 0;
  for (const r of rules) {
    if (r.payer || r.verification.status !== 'verified' || !byState[r.jurisdiction]) continue;
    byState[r.jurisdiction][r.program]++;
    byProgram[r.program]++;
    verified++;
  }
  return { byState, byProgram, verified, total: TOTAL_COMBINATIONS, percent: Math.round((1000 * verified) / TOTAL_COMBINATIONS) / 10 };
}

/** A Markdown table: one row per jurisdiction, one column per program, verified subjects out of 40. */
export function renderCoverageMarkdown(t: CoverageTable): string {
  const head = `| State | ${PROGRAMS.join(' | ')} | all |\n|---|${PROGRAMS.map(() => '---:').join('|')}|---:|`;
  const rows = JURISDICTIONS.map((j) => {
    const cells = PROGRAMS.map((p) => t.byState[j][p]);
    return `| ${j} | ${cells.join(' | ')} | ${cells.reduce((a, b) => a + b, 0)} |`;
  });
  const totals = `| **all** | ${PROGRAMS.map((p) => t.byProgram[p]).join(' | ')} | ${t.verified} |`;
  return `Verified program-level rules: **${t.verified} of ${t.total}** combinations (${t.percent}%). Each cell counts the
subjects (of ${SUBJECTS_PER_PROGRAM}: 20 drug classes, 20 service categories) with a verified rule. ${OUTSIDE_COMBINATIONS} of the
combinations lie outside their program's benefit (non-drug services under Part D) and stay in the total, although no
rule will ever exist for them.

${head}\n${rows.join('\n')}\n${totals}`;
}
