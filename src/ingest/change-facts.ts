// What a change-log entry records beyond "this rule changed": the facts a reader of the change feed cares about,
// before and after, and the entries for regulatory events. Kept apart from run-ingest so the ingest pipeline
// only calls two functions.
import type { CoverageRuleDoc, RegulatoryEventDoc } from '../domain/documents.js';

/** The served facts of a rule that the feed shows as old -> new. */
export interface RuleFacts {
  paRequired: boolean;
  paType: string;
  sourceUrl: string;
  sourceTitle: string;
  lastVerified: string;
  status: string;
  /** The program does not cover the subject (an exclusion): not "no PA required". Absent in entries logged before. */
  notCovered?: boolean;
  /** The population the requirement is limited to, if any. */
  appliesTo?: string;
  /** How binding the requirement is (plan_may_require, voluntary); absent: required. */
  paMode?: string;
}

export function ruleFacts(rule: CoverageRuleDoc): RuleFacts {
  return {
    paRequired: rule.requirement.paRequired,
    paType: rule.requirement.paType,
    sourceUrl: rule.source.url,
    sourceTitle: rule.source.title,
    lastVerified: rule.verification.lastVerified,
    status: rule.verification.status,
    ...(rule.requirement.exclusion ? { notCovered: true } : {}),
    ...(rule.requirement.population ? { appliesTo: rule.requirement.population } : {}),
    ...(rule.requirement.paMode ? { paMode: rule.requirement.paMode } : {}),
  };
}

/** A regulatory event added or changed by an ingest; stored in the same change log as rule changes. */
export interface EventChangeLogEntry {
  id: string;
  at: string;
  corpusVersion: number;
  action: 'added' | 'changed';
  resourceType: 'RegulatoryEvent';
  eventId: number;
  jurisdiction: string;
  programs: string[];
  eventKind: string;
  title: string;
  issuedAt: string;
  effectiveAt: string;
  /** Federal rule id (e.g. CMS-0057-F) the event belongs to, when any. */
  federalRuleId?: string;
  sourceUrl?: string;
  summary: string;
}

export function eventChange(doc: RegulatoryEventDoc, existed: boolean, at: string): Omit<EventChangeLogEntry, 'id' | 'corpusVersion'> {
  return {
    at,
    action: existed ? 'changed' : 'added',
    resourceType: 'RegulatoryEvent',
    eventId: doc.id,
    jurisdiction: doc.jurisdiction,
    programs: [...(doc.programs ?? [])],
    eventKind: doc.eventKind,
    title: doc.title,
    issuedAt: doc.issuedAt,
    effectiveAt: doc.effectiveAt,
    ...(doc.ruleId ? { federalRuleId: doc.ruleId } : {}),
    ...(doc.sourceUrl ? { sourceUrl: doc.sourceUrl } : {}),
    summary: `${doc.jurisdiction} ${doc.eventKind.replace(/_/g, ' ')}: ${doc.title} (effective ${doc.effectiveAt})`,
  };
}
