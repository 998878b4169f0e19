// PAS Claim/$submit: the same Bundle again is the same authorization; an update goes to update.ts; a new request gets
// item decisions from the rules (or is pended where the member's state and program cannot be told) and its clock.
import { sha256Hex } from '../../domain/hash.js';
import { stableStringify } from '../../domain/stable-json.js';
import type { Scope } from '../../domain/named-scope.js';
import { isFailure, type Failure } from '../../fhir/outcome.js';
import { focalCoverage, isExpedited, parsePasRequest, priorOf, type PasRequest } from '../../fhir/pas/request.js';
import { decideItem, type ItemDecision } from '../../fhir/pas/decide-item.js';
import type { PasErrorView } from '../../fhir/pas/views.js';
import { matchKeys, requestorOrgIdentifiers } from '../../fhir/pas/inquiry.js';
import type { Bundle, Organization } from '../../fhir/r4.js';
import { shortHash } from '../../fhir/ids.js';
import type { ExplicitHints } from '../../fhir/resolve/coverage-context.js';
import { DuplicateKeyError } from '../../store/port.js';
import { X12_FOLLOWUP, X12_REJECT } from '../../../fhir-profiles/canonicals.js';
import type { PasSubmissionDoc } from './store.js';
import { CMS_0057_HOURS, type PasCaller } from './contract.js';
import { addHours, contextFor, itemDoc, statusOf, undeterminedItem, type PasWorkflow } from './workflow.js';
import { findPrior, submitUpdate } from './update.js';

/**
 * The idempotency key of a request: its identifier (the Bundle's, else the Claim's) AND the Claim's content. The same
 * Bundle sent again is the same submission (the same authorization, in its current state); two different Claims
 * under one transaction identifier are two submissions (test harnesses reuse one Bundle.identifier for every
 * request, the PAS test kit among them). The caller's ?state=&program= choose the rules, so the same Bundle sent for
 * another state or program is another submission (a request without them keeps the key it always had).
 */
export function dedupeKeyOf(owner: string, req: PasRequest, hints: ExplicitHints = {}): string {
  const b = req.bundle.identifier;
  const ids = (req.claim.identifier ?? []).map((i) => `${i.system ?? ''}|${i.value ?? ''}`).sort();
  const id = b?.value ? `bundle:${b.system ?? ''}|${b.value}` : ids.length ? `claim:${ids.join(',')}` : 'none';
  const chosen = hints.state || hints.program ? `\nhints:${hints.state ?? ''}|${hints.program ?? ''}` : '';
  return sha256Hex(`${owner}\n${id}\ncontent:${sha256Hex(stableStringify(req.claim))}${chosen}`);
}

export function newDoc(caller: PasCaller, req: PasRequest, key: string, at: string): Omit<PasSubmissionDoc, 'id' | 'state' | 'program' | 'plan' | 'items' | 'errors' | 'dueAt' | 'status' | 'decidedAt'> {
  const keys = matchKeys(req);
  const claimEntry = req.bundle.entry?.[0];
  return {
    owner: caller.owner,
    dedupeKeys: [key],
    expedited: isExpedited(req.claim),
    receivedAt: at,
    extendedAt: null,
    claimIdentifiers: keys.claimIdentifiers,
    claimRefs: [claimEntry?.fullUrl, req.claim.id ? `Claim/${req.claim.id}` : undefined].filter((v): v is string => !!v),
    memberIds: keys.memberIds,
    providerIds: keys.providerIds,
    orgIdentifiers: requestorOrgIdentifiers(req),
    itemCodes: keys.itemCodes,
    request: req.bundle,
    notes: [],
    humanReviewed: false,
    ...(caller.base ? { payerUrl: `${caller.base}/v1` } : {}),
    version: 1,
    updatedAt: at,
  };
}


export async function submitNew(w: PasWorkflow, caller: PasCaller, body: unknown, hints: ExplicitHints): Promise<{ body: Bundle; scope?: Scope } | Failure> {
  const req = parsePasRequest(body);
  if (isFailure(req)) return req;
  const key = dedupeKeyOf(caller.owner, req, hints);
  const seen = await w.submissions.findOne({ owner: caller.owner, dedupeKeys: key });
  if (seen) {
    // The same Bundle again: the same authorization, in its current state.
    return w.answer(seen);
  }
  const now = w.deps.now();
  const at = now.toISOString();
  if (priorOf(req.claim)) {
    const prior = await findPrior(w, caller, req);
    if (prior) return submitUpdate(w, caller, req, key, prior, hints);
  }
  const cc = contextFor(w.deps, caller, req, hints, now);
  const errors: PasErrorView[] = [];
  let decisions: ItemDecision[];
  if (priorOf(req.claim)) {
    // An update whose prior request we do not hold (or the caller does not own): answered, never guessed.
    errors.push({ code: X12_REJECT.authorizationNotFound, path: `${req.claimPath}.related[0].claim`, followup: X12_FOLLOWUP.correctAndResubmit, message: 'The prior request this update points at (related.claim) is not one of your stored requests; send it as a new request or correct the reference.' });
    decisions = [];
  } else if (!cc.state || !cc.program) {
    const unknown = cc.basis.filter((b) => b.includes('unknown')).join('; ');
    errors.push({ code: X12_REJECT.requiredDataMissing, path: `${req.claimPath}.insurance`, followup: X12_FOLLOWUP.correctAndResubmit, message: `Cannot tell the member's state and program (${unknown}). The items are pended for manual review; resubmit with a Coverage naming the program (Coverage.class or an SOPT Coverage.type) and the member's state, or ?state=&program=.` });
    decisions = req.claim.item!.map((i) => undeterminedItem(i.sequence));
  } else {
    caller.authorize({ states: [cc.state], programs: [cc.program] });
    decisions = req.claim.item!.map((item) => decideItem(w.deps.corpus.current, req, item, { state: cc.state!, program: cc.program!, ...(cc.payer ? { payer: cc.payer } : {}) }, now));
  }
  if (!focalCoverage(req) && !errors.length) {
    errors.push({ code: X12_REJECT.requiredDataMissing, path: `${req.claimPath}.insurance`, followup: X12_FOLLOWUP.correctAndResubmit, message: 'The request carries no Coverage for the member (Claim.insurance.coverage): the member\'s plan is unknown, so plan-specific rules were not applied.' });
  }
  const expedited = isExpedited(req.claim);
  const hours = decisions.map((d) => (expedited ? d.turnaround?.expeditedHours : d.turnaround?.standardHours)).filter((h): h is number => typeof h === 'number' && h > 0);
  const clock = hours.length ? Math.min(...hours) : expedited ? CMS_0057_HOURS.expeditedHours : CMS_0057_HOURS.standardHours;
  const items = decisions.map((d) => itemDoc(d, at, 'rules', caller.base));
  const insurer = req.lookup(req.claim.insurer, req.claim) as Organization | undefined;
  const status = errors.length && !items.length ? 'decided' : statusOf(items, false);
  const doc: PasSubmissionDoc = {
    id: `PA-${shortHash(key, 10).toUpperCase()}`,
    ...newDoc(caller, req, key, at),
    state: cc.state ?? null,
    program: cc.program ?? null,
    plan: { id: cc.payer?.id ?? insurer?.identifier?.[0]?.value ?? null, name: cc.payer?.name ?? insurer?.name ?? null },
    dueAt: addHours(at, clock),
    status,
    decidedAt: status === 'pended' ? null : at,
    items,
    errors,
    cause: 'submitted',
  };
  try {
    await w.submissions.insert(doc);
  } catch (err) {
    if (!(err instanceof DuplicateKeyError)) throw err;
    const raced = await w.submissions.findOne({ id: doc.id });
    if (!raced) throw err;
    return w.answer(raced);
  }
  // Version 1 is the submission itself: it is stored as a past version when the submission first changes.
  await w.scheduleAutoDecide(doc);
  return w.answer(doc);
}
