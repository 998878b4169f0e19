// How every surface cites a rule: the same evidence list (PaRule.evidence, compare rows, ask citations, action-plan
// provenance) and the same one-line citation (CRD cards, PAS process notes, DTR, notify-when-ready messages).
import type { CoverageRuleDoc } from './documents.js';

export interface WireEvidence {
  source_url: string;
  title: string;
  publisher: string;
  /** The document's own effective or revision date, when it prints one. */
  effective?: string;
  locator: string;
  checked: string;
}

export function toWireEvidence(rule: Pick<CoverageRuleDoc, 'evidence'>): WireEvidence[] {
  return (rule.evidence ?? []).map((e) => ({
    source_url: e.url, title: e.title, publisher: e.publisher,
    ...(e.effective ? { effective: e.effective } : {}),
    locator: e.locator, checked: e.checked,
  }));
}

/** Where in the rule's source the requirement is stated (rules derived from curated facts), if known. */
export function sourceLocator(rule: Pick<CoverageRuleDoc, 'source' | 'evidence'>): string | undefined {
  return rule.evidence?.find((e) => e.url === rule.source.url)?.locator;
}

/** "Title (publisher), locator, url": the rule's source and where in it the requirement is stated. */
export function citationLine(rule: Pick<CoverageRuleDoc, 'source' | 'evidence'>): string {
  const at = sourceLocator(rule);
  return `${rule.source.title} (${rule.source.publisher})${at ? `, ${at}` : ''}, ${rule.source.url}`;
}
