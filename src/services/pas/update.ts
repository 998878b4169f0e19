// A PAS update (Claim.related.claim pointing at a stored request): changed or added items decided again, cancelled
// items or a cancelled request recorded, unchanged items keeping their decision; a new version of the authorization.
import type { Program } from '../../domain/vocabulary.js';
import type { Scope } from '../../domain/named-scope.js';
import type { Failure } from '../../fhir/outcome.js';
import { claimCancelled, itemCancelled, priorOf, type PasRequest } from '../../fhir/pas/request.js';
import { decideItem } from '../../fhir/pas/decide-item.js';
import { matchKeys } from '../../fhir/pas/inquiry.js';
import type { Bundle } from '../../fhir/r4.js';
import type { ExplicitHints } from '../../fhir/resolve/coverage-context.js';
import { PAS_EXT } from '../../../fhir-profiles/canonicals.js';
import type { PasItemDoc, PasSubmissionDoc } from './store.js';
import type { PasCaller } from './contract.js';
import { contextFor, itemDoc, statusOf, undeterminedItem, type PasWorkflow } from './workflow.js';

/**
 * The stored request an update points at (related.claim): by preAuthRef, Claim identifier or Claim reference. A
 * harness reuses its identifiers and fullUrls for every request (the PAS kit's all name
 * Claim/ReferralAuthorizationExample), so of several matches the most recently changed one is the prior request.
 */
export async function findPrior(w: PasWorkflow, caller: PasCaller, req: PasRequest): Promise<PasSubmissionDoc | null> {
  const prior = priorOf(req.claim);
  if (!prior) return null;
  const ownerFilter = caller.all ? {} : { owner: caller.owner };
  const latest = async (filter: Record<string, unknown>): Promise<PasSubmissionDoc | null> => (await w.submissions.find({ ...ownerFilter, ...filter }, { sort: { updatedAt: -1 }, limit: 1 }))[0] ?? null;
  for (const v of prior.identifiers) {
    const byRef = await w.submissions.findOne({ ...ownerFilter, id: v });
    if (byRef) return byRef;
    const byId = await latest({ claimIdentifiers: v });
    if (byId) return byId;
  }
  if (prior.reference) {
    const ref = prior.reference;
    const byRef = await latest({ claimRefs: ref });
    if (byRef) return byRef;
    const tail = /([A-Za-z]+\/[A-Za-z0-9.-]{1,64})(\/_history\/[^/]+)?$/.exec(ref)?.[1];
    if (tail) return latest({ claimRefs: tail });
  }
  return null;
}

export async function submitUpdate(w: PasWorkflow, caller: PasCaller, req: PasRequest, key: string, prior: PasSubmissionDoc, hints: ExplicitHints): Promise<{ body: Bundle; scope?: Scope } | Failure> {
  const scope = w.scopeOf(prior);
  if (scope) caller.authorize(scope);
  const out = await w.changeWithRetry<never>(`PAS update of ${prior.id}`, prior.id, prior, (cur) => {
    if (!cur) throw new Error(`PAS update of ${prior.id}: the stored request is gone`);
    const now = w.deps.now();
    const at = now.toISOString();
    const by = caller.owner;
    const wholeCancel = claimCancelled(req.claim);
    const model = w.deps.corpus.current;
    const cc = cur.state && cur.program ? { state: cur.state, program: cur.program } : contextFor(w.deps, caller, req, hints, now);
    const items: PasItemDoc[] = cur.items.map((i) => ({ ...i, history: [...i.history] }));
    for (const item of req.claim.item ?? []) {
      const existing = items.find((i) => i.sequence === item.sequence);
      if (wholeCancel || itemCancelled(item)) {
        if (existing && existing.action !== 'cancelled') {
          existing.action = 'cancelled';
          existing.decidedAt = at;
          existing.history.push({ action: 'cancelled', at, by });
        }
        continue;
      }
      const changed = (item.extension ?? []).find((e) => e.url === PAS_EXT.infoChanged)?.valueCode;
      if (existing && !changed) continue; // unchanged items keep their decision
      // Without a state and program an added or changed item is pended for a person, as in a new request.
      const d = cc.state && cc.program ? decideItem(model, req, item, { state: cc.state, program: cc.program as Program }, now) : undeterminedItem(item.sequence);
      const fresh = itemDoc(d, at, 'rules', caller.base);
      if (existing) Object.assign(existing, { ...fresh, history: [...existing.history, ...fresh.history] });
      else items.push(fresh);
    }
    if (wholeCancel) {
      for (const i of items) {
        if (i.action !== 'cancelled') {
          i.action = 'cancelled';
          i.decidedAt = at;
          i.history.push({ action: 'cancelled', at, by });
        }
      }
    }
    items.sort((a, b) => a.sequence - b.sequence);
    const status = statusOf(items, wholeCancel);
    const next: PasSubmissionDoc = {
      ...cur,
      dedupeKeys: [...cur.dedupeKeys, key],
      request: req.bundle,
      claimIdentifiers: [...new Set([...cur.claimIdentifiers, ...matchKeys(req).claimIdentifiers])],
      claimRefs: [...new Set([...cur.claimRefs, ...[req.bundle.entry?.[0]?.fullUrl, req.claim.id ? `Claim/${req.claim.id}` : undefined].filter((v): v is string => !!v)])],
      itemCodes: [...new Set([...cur.itemCodes, ...matchKeys(req).itemCodes])],
      items,
      status,
      decidedAt: status !== 'pended' ? (cur.decidedAt ?? at) : null,
      notes: wholeCancel ? [...cur.notes, 'The request was cancelled at the provider\'s request (certificationType 3).'] : cur.notes,
      version: cur.version + 1,
      updatedAt: at,
    };
    return { save: next, cause: status === 'cancelled' ? 'cancelled' : 'updated' };
  });
  if ('answer' in out) return out.answer;
  await w.scheduleAutoDecide(out.saved);
  return w.answer(out.saved);
}
