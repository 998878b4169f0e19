// Single-state rule lookup (spec 2.3). The response for each (state, program, subject) is serialised once per
// read model and reused; only the timestamp is written per request.
import type { CoverageRuleDoc } from '../domain/documents.js';
import type { Program, SubjectKind } from '../domain/vocabulary.js';
import { ruleKey, type ReadModel } from '../corpus/read-model.js';
import { toNextSteps, toPaRule } from './pa-rule.js';
import type { OutsideProgram } from '../domain/program-scope.js';
import { outsideFor } from '../corpus/program-gap.js';

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
  | { kind: 'found'; rule: CoverageRuleDoc; /** the body up to the timestamp value */ prefix: string; /** its UTF-8 bytes */ prefixBytes: Buffer }
  | { kind: 'scope_gap' };

/** The `query` object echoed in responses: `drug_class` for a drug, `service_category` for a service. */
export function toQueryEcho(subject: SubjectQuery): Record<string, string> {
  return subject.kind === 'drug' ? { drug_class: subject.code } : { service_category: subject.code };
}

/**
 * What every scope_gap body says beyond the query echo (the lookup's and the action plan's 404, the ask answer's gap
 * items): where to be told when a rule is published, or, where no rule will exist (outsideFor), why and which
 * programs to ask instead.
 */
export function gapDetails(model: ReadModel, q: LookupQuery): { notify_url: string } | { outside_program: OutsideProgram } {
  const outside = outsideFor(model, q);
  return outside ? { outside_program: outside } : { notify_url: '/v1/notify-when-ready' };
}

const prepared = new WeakMap<ReadModel, Map<string, { prefix: string; prefixBytes: Buffer }>>();

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
  let body = cache.get(key);
  if (body === undefined) {
    const prefix = preparePrefix(q, rule);
    body = { prefix, prefixBytes: Buffer.from(prefix) };
    cache.set(key, body);
  }
  return { kind: 'found', rule, ...body };
}

/**
 * The body of a found rule: the prepared prefix's bytes and the timestamp written after them into one buffer, so a
 * request neither copies the body's text nor measures its UTF-8 length.
 */
export function lookupBodyBytes(prefixBytes: Buffer, now: Date): Buffer {
  const end = `${now.toISOString()}"}`; // ASCII
  const out = Buffer.allocUnsafe(prefixBytes.length + end.length);
  prefixBytes.copy(out, 0);
  out.write(end, prefixBytes.length, 'latin1');
  return out;
}
