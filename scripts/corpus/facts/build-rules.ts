// The corpus's rules: the generator's structure with the curated facts applied (corpus/facts/FORMAT.md).
import { join } from 'node:path';
import type { CoverageRuleDoc } from '../../../src/domain/documents.js';
import { payerLevelRules, programLevelRules } from '../rules.js';
import { applyFacts, type ApplyReport } from './apply.js';
import { loadFacts } from './load.js';

export interface BuiltRules {
  rules: CoverageRuleDoc[];
  programRules: CoverageRuleDoc[];
  payerRules: CoverageRuleDoc[];
  report: ApplyReport;
  factFiles: string[];
  facts: number;
}

/** Throws listing every problem of the fact files (schema, sources, locators, conflicts). */
export function buildRules(root: string): BuiltRules {
  const loaded = loadFacts(join(root, 'corpus', 'facts'), root);
  if (loaded.errors.length) throw new Error(`corpus/facts: ${loaded.errors.length} problem(s):\n  ${loaded.errors.join('\n  ')}`);
  const { rules, report } = applyFacts([...programLevelRules(), ...payerLevelRules()], loaded.facts);
  if (report.errors.length) throw new Error(`corpus/facts: ${report.errors.length} conflict(s):\n  ${report.errors.slice(0, 50).join('\n  ')}`);
  return {
    rules, report, factFiles: loaded.files, facts: loaded.facts.length,
    programRules: rules.filter((r) => !r.payer), payerRules: rules.filter((r) => r.payer),
  };
}
