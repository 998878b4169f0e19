// Endpoints 11 and 12 (spec 2.8, 4.3 rule 6): approved topics, what they match, and where.
// A topic matches a regulatory event when the event is tagged with it or names its CMS rule (the event is the
// topic's own), or, within the topic's scope (its programs and jurisdictions, when it states them), when the event
// names one of its drug classes or service categories or its title carries one of its keywords. A regulation topic
// does not take in another regulation's event that way (an event tagged with another topic or naming another CMS
// rule: the DMEPOS list's CMS-6097-N is not a WISeR event). A topic matches a rule when the rule's subject is one of
// its classes or categories and the rule's state and program are in its scope (a WISeR topic counts Original
// Medicare rules in the WISeR states, not every outpatient-surgery rule). Both count as matches; `sample_events`
// lists events only.
import type { CoverageRuleDoc, RegulatoryEventDoc, TopicDoc } from '../../domain/documents.js';
import { JURISDICTIONS, type Program } from '../../domain/vocabulary.js';
import type { ReadModel } from '../../corpus/read-model.js';
import type { ScopeFilter } from './scope.js';
import { addDays, isoDate } from '../../domain/time.js';

export const SLUG_PATTERN = /^[a-z0-9-]+$/;
export const STATUS_HINTS = ['expanding', 'contracting', 'rule_change', 'rate_change', 'active', 'no_data'] as const;
export type StatusHint = (typeof STATUS_HINTS)[number];
export const MAX_SAMPLE_EVENTS = 50;

/** What the newest matched event of a jurisdiction says about the direction of travel. */
const HINT_BY_EVENT_KIND: Readonly<Record<string, StatusHint>> = {
  model_start: 'expanding',
  model_expansion: 'expanding',
  model_announcement: 'expanding',
  model_end: 'contracting',
  coverage_restriction: 'contracting',
  rate_change: 'rate_change',
  final_rule: 'rule_change',
  proposed_rule: 'rule_change',
  list_update: 'rule_change',
  timeframe_change: 'rule_change',
  compliance_date: 'rule_change',
  compliance_status: 'rule_change',
  reporting_deadline: 'rule_change',
  enforcement_discretion: 'rule_change',
};

/**
 * Whether a jurisdiction and programs are inside the topic's scope. A topic without stated jurisdictions or programs
 * has no bound there; a federal ('US') event and an event without programs are inside every scope.
 */
export function inTopicScope(topic: TopicDoc, jurisdiction: string, programs: readonly Program[] | undefined): boolean {
  const { jurisdictions: states, programs: progs } = topic.match;
  if (states?.length && jurisdiction !== 'US' && !states.includes(jurisdiction)) return false;
  if (progs?.length && programs?.length && !programs.some((p) => progs.includes(p))) return false;
  return true;
}

export function eventMatches(topic: TopicDoc, e: RegulatoryEventDoc): string[] {
  const why: string[] = [];
  if (e.topics.includes(topic.id)) why.push(`tagged:${topic.id}`);
  if (e.ruleId && topic.match.ruleIds?.includes(e.ruleId)) why.push(`rule:${e.ruleId}`);
  const own = why.length > 0;
  const otherRegulation = topic.kind === 'regulation' && (e.topics.length > 0 || !!e.ruleId);
  if (!own && (otherRegulation || !inTopicScope(topic, e.jurisdiction, e.programs))) return why;
  for (const s of e.subjects ?? []) {
    if ((s.kind === 'drug' ? topic.match.drugClasses : topic.match.serviceCategories)?.includes(s.code)) why.push(`${s.kind}:${s.code}`);
  }
  const title = e.title.toLowerCase();
  for (const k of topic.match.keywords ?? []) if (title.includes(k.toLowerCase())) why.push(`keyword:${k}`);
  return [...new Set(why)];
}

const ruleMatches = (topic: TopicDoc, r: CoverageRuleDoc): boolean =>
  !!(r.subject.kind === 'drug' ? topic.match.drugClasses : topic.match.serviceCategories)?.includes(r.subject.code) &&
  inTopicScope(topic, r.jurisdiction, [r.program]);

interface TopicMatches {
  topic: TopicDoc;
  events: { e: RegulatoryEventDoc; why: string[] }[];
  rules: CoverageRuleDoc[];
}

const cache = new WeakMap<ReadModel, Map<string, TopicMatches>>();

function matchesOf(model: ReadModel): Map<string, TopicMatches> {
  let m = cache.get(model);
  if (m) return m;
  m = new Map();
  const allRules = [...model.ruleById.values()];
  for (const topic of model.topics.values()) {
    if (topic.status !== 'approved') continue;
    const events = model.events.map((e) => ({ e, why: eventMatches(topic, e) })).filter((x) => x.why.length > 0);
    events.sort((a, b) => b.e.issuedAt.localeCompare(a.e.issuedAt) || b.e.effectiveAt.localeCompare(a.e.effectiveAt) || b.e.id - a.e.id);
    m.set(topic.id, { topic, events, rules: allRules.filter((r) => ruleMatches(topic, r)) });
  }
  cache.set(model, m);
  return m;
}

const topicHead = (t: TopicDoc) => ({ slug: t.id, display_name: t.displayName, kind: t.kind, description: t.description, taxonomy_link: t.taxonomyLink });

/** Events are visible when federal or in scope; rules when their state and program are in scope. */
function visible(tm: TopicMatches, scope: ScopeFilter) {
  return {
    events: tm.events.filter((x) => x.e.jurisdiction === 'US' || (scope.state(x.e.jurisdiction) && (!x.e.programs?.length || x.e.programs.some(scope.program)))),
    rules: tm.rules.filter((r) => scope.state(r.jurisdiction) && scope.program(r.program)),
  };
}

export function listTopics(model: ReadModel, scope: ScopeFilter): { topics: Record<string, unknown>[] } {
  const topics = [...matchesOf(model).values()]
    .map((tm) => {
      const v = visible(tm, scope);
      const states = new Set([...v.events.map((x) => x.e.jurisdiction), ...v.rules.map((r) => r.jurisdiction)].filter((j) => j !== 'US'));
      return { ...topicHead(tm.topic), match_count: v.events.length + v.rules.length, jurisdiction_count: states.size };
    })
    .sort((a, b) => a.slug.localeCompare(b.slug));
  return { topics };
}

/** How long an event sets a jurisdiction's direction of travel; after it the topic is simply active there. */
export const HINT_WINDOW_DAYS = 730;

/** The detail, or undefined for an unknown or unapproved topic. */
export function topicDetail(model: ReadModel, slug: string, scope: ScopeFilter, now: Date): Record<string, unknown> | undefined {
  const recentSince = addDays(isoDate(now), -HINT_WINDOW_DAYS);
  const tm = matchesOf(model).get(slug);
  if (!tm) return undefined;
  const v = visible(tm, scope);
  const by: Record<string, unknown> = {};
  const withData: string[] = [];
  const without: string[] = [];
  for (const j of JURISDICTIONS.filter(scope.state)) {
    const events = v.events.filter((x) => x.e.jurisdiction === j).map((x) => x.e);
    const rules = v.rules.filter((r) => r.jurisdiction === j);
    const count = events.length + rules.length;
    (count ? withData : without).push(j);
    const latest = events[0];
    const max = (f: (e: RegulatoryEventDoc) => string | null | undefined) => events.map(f).filter((x): x is string => !!x).sort().pop() ?? null;
    by[j] = {
      count,
      latest_event_at: latest?.issuedAt ?? null,
      latest_effective_at: max((e) => e.effectiveAt),
      latest_compliance_at: max((e) => e.mmcComplianceAt),
      latest_event_kind: latest?.eventKind ?? null,
      // A model that started or expanded years ago is not "expanding" now: only a recent event sets the direction.
      status_hint: latest && (latest.effectiveAt || latest.issuedAt) >= recentSince ? (HINT_BY_EVENT_KIND[latest.eventKind] ?? 'active') : count ? 'active' : 'no_data',
    };
  }
  return {
    topic: topicHead(tm.topic),
    by_jurisdiction: by,
    states_with_data: withData,
    states_without_data: without,
    total_matches: v.events.length + v.rules.length,
    sample_events: v.events.slice(0, MAX_SAMPLE_EVENTS).map(({ e, why }) => ({
      id: e.id,
      jurisdiction: e.jurisdiction,
      event_kind: e.eventKind,
      event_title: e.title,
      issued_at: e.issuedAt,
      effective_at: e.effectiveAt,
      mmc_compliance_at: e.mmcComplianceAt ?? null,
      comment_deadline: e.commentDeadline ?? null,
      pa_relevant: e.paRelevant,
      source_url: e.sourceUrl ?? null,
      matched_on: why,
    })),
  };
}
