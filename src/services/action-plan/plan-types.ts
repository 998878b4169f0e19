// The action plan's request, its wire shapes (spec 2.9) and the grounding every part of the plan reads.
import type { CoverageRuleDoc } from '../../domain/documents.js';
import type { PaEffect, Program } from '../../domain/vocabulary.js';
import type { SubjectQuery } from '../lookup.js';
import type { PaRule } from '../pa-rule.js';
import type { CodeResolution } from '../../corpus/resolve-code.js';
import type { ActionKind, MemberContext, RuleFacts, Signal, NotApplicable } from './rank-actions.js';

export interface ActionPlanQuery {
  state: string;
  program: Program;
  subject: SubjectQuery;
  code?: CodeResolution;
  context: MemberContext;
}

/** How far ahead change windows are listed, and how near one must be to make waiting worth a look. */
export const CHANGE_HORIZON_DAYS = 548; // about 18 months
export const WAIT_HORIZON_DAYS = 180;
/** Confidence of a plan that rests on payer-level rules or on the ladder alone. */
export const ESTIMATE_CONFIDENCE = { payerRules: 0.4, ladderOnly: 0.2 } as const;

export type PlanBasis = 'verified_rule' | 'payer_rules_estimate' | 'appeal_ladder_only';

export interface WireCitation {
  title: string;
  url: string | null;
}

export interface RankedActionWire {
  rank: number;
  kind: ActionKind;
  title: string;
  score: number;
  deadline: string | null;
  deadline_basis: string;
  decision_expected_by?: string;
  rationale: string;
  signals: Signal[];
  citations: WireCitation[];
  confidence: number;
  caveat?: string;
}

export interface ContactWire {
  role: string;
  name: string;
  phone?: string;
  fax?: string;
  url?: string;
  hours?: string;
  source: 'rule' | 'jurisdiction' | 'payer';
  payer_id?: string;
}

export interface ChangeWindowWire {
  event_id: number;
  title: string;
  event_kind: string;
  jurisdiction: string;
  date: string;
  date_kind: 'effective' | 'comment_deadline' | 'compliance';
  days_until: number;
  rule_id: string | null;
  source_url: string | null;
  /** What the event changes (null when its record does not say). */
  pa_effect: PaEffect | null;
  /** Whether this date can change the PA answer for the subject, so that waiting for it may be worth it. */
  changes_answer: boolean;
}

export interface ActionPlanBody {
  state: string;
  program: Program;
  query: Record<string, string>;
  code_resolution: CodeResolution | null;
  rule: PaRule | null;
  action_plan: {
    ranked_actions: RankedActionWire[];
    primary: RankedActionWire;
    basis: { kind: PlanBasis; summary: string; member_context: Record<string, unknown>; notice_date: string | null; as_of: string };
    contacts: ContactWire[];
    state_specifics: {
      jurisdiction: Record<string, unknown> | null;
      appeal_ladder: Record<string, unknown>;
      appeal_notes: string | null;
      change_windows: ChangeWindowWire[];
    };
    not_applicable: NotApplicable[];
  };
  provenance: {
    verified: boolean;
    basis: PlanBasis;
    label: string;
    confidence: number;
    last_verified: string | null;
    source_url: string | null;
    caveats: string[];
  };
  supporting_criteria: Record<string, unknown>[];
  grounding: 'keyword';
  timestamp: string;
}

export type ActionPlanOutcome = { kind: 'plan'; body: ActionPlanBody } | { kind: 'scope_gap' };

export interface Grounding {
  basis: PlanBasis;
  rule: CoverageRuleDoc | null;
  payerRules: CoverageRuleDoc[];
  facts: RuleFacts | null;
  confidence: number;
}

export const round2 = (n: number): number => Math.round(n * 100) / 100;
