// An operator's (or the automatic rule's) decision on pended items, appeals of non-certified ones, and extensions of a
// pended request's decision timeframe: each a new version of the authorization, announced to subscriptions.
import { certificationPeriod } from '../../fhir/pas/decide-item.js';
import type { ClaimItem } from '../../fhir/r4.js';
import type { PasSubmissionDoc } from './store.js';
import {
  AUTO_DECIDE_KIND,
  type DecideInput,
  type DecideOutcome,
  type DeferredWork,
  type PasService,
} from './contract.js';
import { addHours, statusOf, type PasWorkflow } from './workflow.js';

export async function decide(w: PasWorkflow, preAuthRef: string, input: DecideInput): Promise<DecideOutcome> {
  const out = await w.changeWithRetry<DecideOutcome>(`decision on ${preAuthRef}`, preAuthRef, undefined, (cur) => {
    if (!cur) return { answer: { kind: 'not_found' } };
    if (cur.status === 'cancelled') return { answer: { kind: 'conflict' as const, message: `${preAuthRef} was cancelled by the provider` } };
    const targets = cur.items.filter((i) => (input.item === undefined ? i.action === 'A4' : i.sequence === input.item));
    if (input.item !== undefined && !targets.length) return { answer: { kind: 'conflict' as const, message: `${preAuthRef} has no item ${input.item}` } };
    if (!targets.length) return { answer: { kind: 'conflict' as const, message: `${preAuthRef} has no pended item to decide` } };
    const bad = targets.find((i) => i.action === 'cancelled' || i.action === 'A1');
    if (bad) return { answer: { kind: 'conflict' as const, message: `Item ${bad.sequence} of ${preAuthRef} is ${bad.action === 'A1' ? 'already certified' : 'cancelled'}` } };
    if (input.decision === 'deny' && targets.some((i) => i.action === 'A3')) return { answer: { kind: 'conflict' as const, message: `Item already not certified; an appeal can only approve it` } };
    const now = w.deps.now();
    const at = now.toISOString();
    const by = input.by ?? 'operator';
    const items = cur.items.map((i) => ({ ...i, history: [...i.history] }));
    for (const i of items) {
      if (!targets.some((t) => t.sequence === i.sequence)) continue;
      const claimItem = ((cur.request.entry?.[0]?.resource as { item?: ClaimItem[] } | undefined)?.item ?? []).find((c) => c.sequence === i.sequence);
      const appeal = i.action === 'A3';
      i.action = input.decision === 'approve' ? 'A1' : 'A3';
      i.decidedAt = at;
      i.missing = [];
      if (i.action === 'A1') i.certification = certificationPeriod(claimItem, now);
      else delete i.certification;
      if (input.reasonCode) i.reasonCode = input.reasonCode;
      else delete i.reasonCode;
      const verb = i.action === 'A1' ? (appeal ? 'Certified on appeal' : 'Certified after review') : 'Not certified after review';
      i.notes = [`${verb}${i.certification ? `, valid ${i.certification.start} to ${i.certification.end}` : ''}.${input.note ? ` ${input.note}` : ''}`];
      i.history.push({ action: i.action, at, by, ...(input.reasonCode ? { reasonCode: input.reasonCode } : {}) });
    }
    const status = statusOf(items, false);
    const next: PasSubmissionDoc = { ...cur, items, status, decidedAt: status === 'pended' ? null : at, humanReviewed: by !== 'auto' || cur.humanReviewed, version: cur.version + 1, updatedAt: at };
    return { save: next, cause: 'decided' };
  });
  return 'saved' in out ? { kind: 'ok', submission: out.saved, bundle: w.bundleOf(out.saved) } : out.answer;
}

export async function extend(w: PasWorkflow, preAuthRef: string, input: { days: number; reason: string; by?: string }): Promise<DecideOutcome> {
  const out = await w.changeWithRetry<DecideOutcome>(`extension of ${preAuthRef}`, preAuthRef, undefined, (cur) => {
    if (!cur) return { answer: { kind: 'not_found' } };
    if (cur.status !== 'pended') return { answer: { kind: 'conflict' as const, message: `${preAuthRef} is ${cur.status}: only a pended request's timeframe can be extended` } };
    const at = w.deps.now().toISOString();
    const dueAt = addHours(cur.dueAt, input.days * 24);
    const next: PasSubmissionDoc = {
      ...cur,
      dueAt,
      extendedAt: at,
      notes: [...cur.notes, `The decision timeframe was extended by ${input.days} day${input.days > 1 ? 's' : ''} (now due ${dueAt}): ${input.reason}`],
      version: cur.version + 1,
      updatedAt: at,
    };
    return { save: next, cause: 'updated' };
  });
  return 'saved' in out ? { kind: 'ok', submission: out.saved, bundle: w.bundleOf(out.saved) } : out.answer;
}

/** Registers the automatic decision handler on the outbox (PAS_AUTO_DECIDE). */
export function handleAutoDecisions(outbox: DeferredWork, pas: PasService, action: 'approve' | 'deny'): void {
  outbox.handle(AUTO_DECIDE_KIND, async (payload) => {
    const { preAuthRef } = payload as { preAuthRef: string };
    const out = await pas.decide(preAuthRef, { decision: action, by: 'auto', note: 'Decided by the automatic rule (PAS_AUTO_DECIDE).' });
    // not_found / conflict: decided or cancelled meanwhile; nothing left to do.
    void out;
  });
}
