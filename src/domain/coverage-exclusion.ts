// A subject the program does not cover (CoverageRuleDoc.requirement.exclusion, from a curated fact's
// `not_covered: true`): every surface says "not covered" and the same options, never "no PA needed, bill as usual".
import type { CoverageRuleDoc } from './documents.js';

/** The program does not cover the subject: there is no PA route, and a claim will be denied. */
export const isNotCovered = (rule: Pick<CoverageRuleDoc, 'requirement'>): boolean => rule.requirement.exclusion !== undefined;

/** What an exclusion generally leaves open (Medicaid and Medicare alike); the rule's criteria name any other route. */
export const NOT_COVERED_OPTIONS = 'Options: a covered alternative, or ask the program about an exception or a fair hearing after a denial';
