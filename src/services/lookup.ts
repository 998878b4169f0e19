// Single-state rule lookup (spec 2.3). The response for each (state, program, subject) is serialised once per
// read model and reused; only the timestamp is written per request.
import type { CoverageRuleDoc } from '../domain/documents.js';
import type { Program, SubjectKind } from '../domain/vocabulary.js';
import { ruleKey, type ReadModel } from '../corpus/read-model.js';
import { toNextSteps, toPaRule } from './pa-rule.js';

export interface SubjectQuery {
  kind: SubjectKind;
  code: string;
}

export interface LookupQuery {
  state: string;
  program: Program;
  subject: SubjectQuery;
}

export type LookupOutcome =
  | { kind: 'found'; rule: CoverageRuleDoc; /** the body up to the timestamp value */ prefix: string }
  | { kind: 'scope_gap' };

/** The `query` object echoed in responses: `drug_class` for a drug, `service_category` for a service. */
export function toQueryEcho(subject: SubjectQuery): Record<string, string> {
  return subject.kind === 'drug' ? { drug_class: subject.code } : { service_category: subject.code };
}

const prepared = new WeakMap<ReadModel, Map<string, string>>();

function preparePrefix(q: LookupQuery, rule: CoverageRuleDoc): string {
  const body = JSON.stringify({
    state: q.state,
    program: q.program,
    query: toQueryEcho(q.subject),
    result: toPaRule(rule),
    next_steps: toNextSteps(rule),
    served_from: 'static',
    timestamp: '',
  });
  return body.slice(0, -2); // drop the closing `"}` of the empty timestamp
}

export function lookupRule(model: ReadModel, q: LookupQuery): LookupOutcome {
  const key = ruleKey(q.state, q.program, q.subject.kind, q.subject.code);
  const rule = model.rules.get(key);
  if (!rule) return { kind: 'scope_gap' };
  let cache = prepared.get(model);
  if (!cache) {
    cache = new Map();
    prepared.set(model, cache);
  }
  let prefix = cache.get(key);
  if (prefix === undefined) {
    prefix = preparePrefix(q, rule);
    cache.set(key, prefix);
  }
  return { kind: 'found', rule, prefix };
}

export function completeLookupBody(prefix: string, now: Date): string {
  return `${prefix}${now.toISOString()}"}`;
}
