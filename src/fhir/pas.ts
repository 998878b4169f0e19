// PAS 2.2.1 Claim/$submit and $inquire, the pure parts: structural checks of the request Bundle, item decisions from
// our rules, and the response projections. State (stored submissions, decision history, clocks) lives in
// src/services/pas/; this module has no store and no clock of its own.
//   rule excludes the subject            -> A3 (not certified) with the exclusion as the reason
//   rule, PA not required               -> A1 (certified in total) + a note that no PA was needed
//   rule, PA required, documentation in -> A1 with a certification period (itemPreAuthPeriod)
//   rule, PA required, documentation out-> A4 (pended) naming the documentation still missing
//   subject known, no rule              -> A4 (pended for manual review; a data gap is never a denial)
//   no code we can map                  -> A4 (pended for manual review) + a note asking for a CPT/HCPCS/RxNorm code
import { citationLine } from '../domain/evidence.js';
import type { ReadModel } from '../corpus/read-model.js';
import type { CoverageRuleDoc } from '../domain/documents.js';
import {
  CODE_SYSTEMS,
  PAS_EXT,
  PAS_PROFILE,
  PRAUTH_PREAUTH_ID_SYSTEM,
  REVIEW_ACTION,
  X12_1322,
  X12_306,
  X12_886,
  X12_889,
  X12_901,
  type ReviewActionCode,
} from '../../fhir-profiles/canonicals.js';
import { isoDate, uuidFrom } from './ids.js';
import type { Failure } from './outcome.js';
import type { Bundle, BundleEntry, Claim, ClaimItem, ClaimResponse, ClaimResponseItem, Coverage, Extension, Patient, Reference, Resource } from './r4.js';
import { bundleLookup, isOrder, orderCodings, resolveCoverageContext, resolveRule, type CoverageContext, type ExplicitHints, type Lookup } from './resolve.js';

export interface PasRequest {
  bundle: Bundle;
  claim: Claim;
  /** FHIRPath prefix of the Claim, for error expressions. */
  claimPath: string;
  lookup: Lookup;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A PAS request Bundle (or a bare Claim, or a Parameters wrapping either) checked for what PAS requires. */
export function parsePasRequest(body: unknown): PasRequest | Failure {
  let input = body;
  if (isObj(input) && input.resourceType === 'Parameters') {
    const inner = ((input.parameter as { resource?: unknown }[] | undefined) ?? []).find((p) => isObj(p.resource))?.resource;
    if (inner) input = inner;
  }
  if (!isObj(input) || typeof input.resourceType !== 'string') {
    return { status: 400, code: 'invalid_body', message: 'Send a PAS request Bundle (or a Claim) as application/fhir+json' };
  }
  if (input.resourceType === 'Claim') {
    const claim = input as unknown as Claim;
    return checkClaim({ resourceType: 'Bundle', type: 'collection', entry: [{ resource: claim }] }, claim, 'Claim');
  }
  if (input.resourceType !== 'Bundle') {
    return { status: 400, code: 'invalid_body', message: `Expected a Bundle or a Claim, got ${input.resourceType}`, expression: input.resourceType };
  }
  const bundle = input as unknown as Bundle;
  if (bundle.type !== 'collection') {
    return { status: 400, code: 'invalid_body', message: `A PAS request Bundle has type 'collection' (got '${String(bundle.type)}')`, expression: 'Bundle.type' };
  }
  if (!Array.isArray(bundle.entry)) return { status: 400, code: 'invalid_body', message: 'A PAS request Bundle needs entries, the first one a Claim', expression: 'Bundle.entry' };
  const first = bundle.entry[0]?.resource;
  if (!first || first.resourceType !== 'Claim') {
    return { status: 400, code: 'invalid_body', message: 'The first entry of a PAS request Bundle must be a Claim', expression: 'Bundle.entry[0].resource' };
  }
  return checkClaim(bundle, first as Claim, 'Bundle.entry[0].resource');
}

/**
 * What the PAS operations cannot do without: use=preauthorization, the patient, the insurer (or a focal Coverage
 * naming its payor) and the provider, and items with unique sequences. A reference that resolves nowhere in the
 * Bundle is not refused: PAS asks submitters to include what they reference, but a decision does not need every
 * resource (an update's prior Claim is left out by design; PAS 2.2.1), and what is read and absent is said in the
 * answer (no Coverage, state or program unknown).
 */
function checkClaim(bundle: Bundle, claim: Claim, at: string): PasRequest | Failure {
  if (claim.use !== 'preauthorization') {
    return { status: 400, code: 'invalid_body', message: `Claim.use must be 'preauthorization' (got '${String(claim.use)}')`, expression: `${at}.use` };
  }
  const entries = bundle.entry ?? [];
  const lookup = bundleLookup(entries);
  // The insurer is who answers: a Claim that does not name it (the PAS reference implementation's test claims) is
  // answered for the payer of its focal Coverage.
  if (!isObj(claim.insurer)) {
    const focal = Array.isArray(claim.insurance) ? (claim.insurance.find((i) => i?.focal) ?? claim.insurance[0]) : undefined;
    const coverage = lookup(focal?.coverage, claim) as Coverage | undefined;
    const payor = coverage?.resourceType === 'Coverage' && Array.isArray(coverage.payor) ? coverage.payor.find(isObj) : undefined;
    if (payor) claim.insurer = { ...payor };
  }
  for (const field of ['patient', 'insurer', 'provider'] as const) {
    if (!isObj(claim[field])) {
      const why = field === 'insurer' ? 'Claim.insurer is required (or a focal Coverage in the Bundle naming its payor)' : `Claim.${field} is required`;
      return { status: 400, code: 'invalid_body', message: why, expression: `${at}.${field}` };
    }
  }
  if (!Array.isArray(claim.item) || !claim.item.length) return { status: 400, code: 'invalid_body', message: 'The Claim has no items to review', expression: `${at}.item` };
  const seen = new Set<number>();
  for (const [i, item] of claim.item.entries()) {
    if (!isObj(item) || !Number.isInteger(item.sequence) || item.sequence < 1 || seen.has(item.sequence)) {
      return { status: 400, code: 'invalid_body', message: 'Every Claim.item needs a unique positive sequence', expression: `${at}.item[${i}].sequence` };
    }
    seen.add(item.sequence);
  }
  return { bundle, claim, claimPath: at, lookup };
}

// ---- updates and cancellations (PAS 2.2.1: related.claim, certificationType, infoCancelled) ----

const codeOf = (exts: Extension[] | undefined, url: string): string | undefined =>
  exts?.find((e) => e.url === url)?.valueCodeableConcept?.coding?.find((c) => c.system === X12_1322 || !c.system)?.code;

/** The prior request an update points at: its preAuthRef (identifier value) and/or a reference string. */
export function priorOf(claim: Claim): { identifiers: string[]; reference?: string } | undefined {
  const rel = (claim.related ?? []).find((r) => r.claim);
  if (!rel?.claim) return undefined;
  const identifiers = [rel.claim.identifier?.value].filter((v): v is string => !!v);
  return { identifiers, ...(rel.claim.reference ? { reference: rel.claim.reference } : {}) };
}

/** The whole request is cancelled (Claim-level certificationType 3). */
export const claimCancelled = (claim: Claim): boolean => codeOf(claim.extension, PAS_EXT.certificationType) === '3';

/** An item is cancelled by the infoCancelled modifier extension or certificationType 3. */
export function itemCancelled(item: ClaimItem): boolean {
  if ((item.modifierExtension ?? []).some((e) => e.url === PAS_EXT.infoCancelled && e.valueBoolean === true)) return true;
  return codeOf(item.extension, PAS_EXT.certificationType) === '3';
}

// ---- item decisions ----

export type ItemAction = ReviewActionCode | 'cancelled';

export interface ItemDecision {
  sequence: number;
  action: ReviewActionCode;
  ruleId?: string;
  notes: string[];
  /** A4: the rule's documentation items not yet attached. */
  missing?: string[];
  /** A1 after review: the certified period (YYYY-MM-DD). */
  certification?: { start: string; end: string };
  /** The rule's decision clock, hours (standard, expedited). */
  turnaround?: { standardHours: number; expeditedHours: number };
  /** Drug or service, when the code resolved to a subject (CMS-0057-F metrics leave drugs out). */
  subjectKind?: 'drug' | 'service';
}

/** Our choice where the request names no service period: a certification runs 90 days from the decision. */
export const DEFAULT_CERTIFICATION_DAYS = 90;

function itemCodings(item: ClaimItem, lookup: Lookup, claim: Claim) {
  const requested = (item.extension ?? [])
    .filter((e) => e.url === PAS_EXT.requestedService)
    .map((e) => lookup(e.valueReference, claim))
    .filter(isOrder)
    .flatMap((o) => orderCodings(o, lookup));
  return [...(item.productOrService?.coding ?? []), ...requested];
}

const norm = (s: string | undefined): string => (s ?? '').toLowerCase().replace(/\s+/g, ' ').trim();

interface QrItem {
  linkId?: string;
  answer?: { valueBoolean?: boolean }[];
  item?: QrItem[];
}
function answeredTrue(items: QrItem[] | undefined, out = new Set<string>()): Set<string> {
  for (const it of items ?? []) {
    if (it.linkId && (it.answer ?? []).some((a) => a.valueBoolean === true)) out.add(it.linkId);
    answeredTrue(it.item, out);
  }
  return out;
}

/**
 * Which of the rule's documentation items the request carries, from what Claim.supportingInfo references: a DTR
 * QuestionnaireResponse (completed or amended) to this rule's questionnaire answering `documentation.N` true, or
 * a DocumentReference whose description, type or attachment title names the item.
 */
export function attachedDocumentation(req: PasRequest, rule: CoverageRuleDoc): Set<string> {
  const docs = rule.requirement.documentation;
  const have = new Set<string>();
  const questionnairePath = `/dtr/questionnaire/${rule.jurisdiction}/${rule.program}/${rule.subject.code}`.toLowerCase();
  for (const info of req.claim.supportingInfo ?? []) {
    const r = req.lookup(info.valueReference, req.claim) as (Resource & Record<string, unknown>) | undefined;
    if (!r) continue;
    if (r.resourceType === 'QuestionnaireResponse') {
      const qr = r as unknown as { status?: string; questionnaire?: string; item?: QrItem[] };
      if (!['completed', 'amended'].includes(qr.status ?? '') || !(qr.questionnaire ?? '').toLowerCase().split('|')[0]!.endsWith(questionnairePath)) continue;
      const yes = answeredTrue(qr.item);
      docs.forEach((d, i) => yes.has(`documentation.${i + 1}`) && have.add(d));
    } else if (r.resourceType === 'DocumentReference') {
      const dr = r as unknown as { status?: string; description?: string; type?: { text?: string; coding?: { display?: string }[] }; content?: { attachment?: { title?: string } }[] };
      if (dr.status && dr.status !== 'current') continue;
      const labels = [dr.description, dr.type?.text, ...(dr.type?.coding ?? []).map((c) => c.display), ...(dr.content ?? []).map((c) => c.attachment?.title)].map(norm).filter(Boolean);
      for (const d of docs) if (labels.some((l) => l === norm(d) || l.startsWith(`${norm(d)}:`))) have.add(d);
    }
  }
  return have;
}

function certificationPeriod(item: ClaimItem, now: Date): { start: string; end: string } {
  const p = item.servicedPeriod;
  if (p?.start && p.end) return { start: p.start.slice(0, 10), end: p.end.slice(0, 10) };
  const start = item.servicedDate?.slice(0, 10) ?? p?.start?.slice(0, 10) ?? isoDate(now);
  const end = new Date(`${start}T00:00:00Z`);
  end.setUTCDate(end.getUTCDate() + DEFAULT_CERTIFICATION_DAYS);
  return { start, end: isoDate(end) };
}

export function decideItem(model: ReadModel, req: PasRequest, item: ClaimItem, cc: { state: string; program: CoverageContext['program'] & string; payer?: CoverageContext['payer'] }, now: Date): ItemDecision {
  const sequence = item.sequence;
  const res = resolveRule(model, cc, itemCodings(item, req.lookup, req.claim));
  if (res.kind === 'unmapped') {
    const codes = res.codings.map((c) => c.code).filter(Boolean).join(', ') || 'none';
    return { sequence, action: 'A4', notes: [`Pended for manual review: the service codes (${codes}) are not in our CPT/HCPCS/RxNorm code lists, so no rule could be applied automatically. Resubmit with a CPT, HCPCS or RxNorm code for an automated answer.`] };
  }
  if (res.kind === 'no-rule') {
    return { sequence, action: 'A4', subjectKind: res.subject.kind, notes: [`Pended for manual review: no verified rule yet for ${cc.state} ${cc.program} ${res.subject.kind} '${res.subject.code}'.`] };
  }
  const r = res.rule;
  const base = { sequence, ruleId: r.id, subjectKind: r.subject.kind, turnaround: { standardHours: r.turnaround.standardHours, expeditedHours: r.turnaround.expeditedHours } };
  if (r.requirement.exclusion) {
    return { ...base, action: 'A3', notes: [`Not certified: ${r.requirement.exclusion.reason} (${r.requirement.exclusion.citation}; rule ${r.id}).`] };
  }
  if (!r.requirement.paRequired) {
    return { ...base, action: 'A1', notes: [`Prior authorization is not required (rule ${r.id}; ${citationLine(r)}). Certified: no review was needed.`] };
  }
  const docs = r.requirement.documentation.length ? r.requirement.documentation : ['Clinical notes supporting medical necessity'];
  const have = r.requirement.documentation.length ? attachedDocumentation(req, r) : new Set<string>();
  const missing = docs.filter((d) => !have.has(d));
  if (!missing.length) {
    const certification = certificationPeriod(item, now);
    return { ...base, action: 'A1', certification, notes: [`Certified under rule ${r.id} (${citationLine(r)}): the attached documentation covers every item the rule lists (${docs.join('; ')}). Valid ${certification.start} to ${certification.end}.`] };
  }
  return {
    ...base,
    action: 'A4',
    missing,
    notes: [
      `Pended for review under rule ${r.id} (${citationLine(r)}). Documentation needed: ${docs.join('; ')}.${have.size ? ` Received: ${[...have].join('; ')}. Still missing: ${missing.join('; ')}.` : ''}`,
      ...(r.requirement.criteria ? [`Criteria: ${r.requirement.criteria}`] : []),
    ],
  };
}

export function decideItems(model: ReadModel, req: PasRequest, cc: { state: string; program: CoverageContext['program'] & string; payer?: CoverageContext['payer'] }, now: Date = new Date()): ItemDecision[] {
  return req.claim.item!.map((item) => decideItem(model, req, item, cc, now));
}

/** Claim state and program: query > claim jurisdiction > Coverage > patient address > payer document. */
export function pasCoverageContext(model: ReadModel, req: PasRequest, hints: ExplicitHints, today: string, fallback?: ExplicitHints): CoverageContext {
  const focal = req.claim.insurance?.find((i) => i.focal) ?? req.claim.insurance?.[0];
  const coverage = req.lookup(focal?.coverage, req.claim) as Coverage | undefined;
  const patient = req.lookup(req.claim.patient, req.claim) as Patient | undefined;
  const jurisdiction = (req.claim.identifier ?? [])
    .flatMap((i) => i.extension ?? [])
    .find((e) => e.url === PAS_EXT.identifierJurisdiction)
    ?.valueCodeableConcept?.coding?.find((c) => c.system === CODE_SYSTEMS.usps)?.code;
  return resolveCoverageContext(model, { coverage: coverage?.resourceType === 'Coverage' ? coverage : undefined, patient, jurisdiction, hints, lookup: req.lookup, today, ...(fallback ? { fallback } : {}) });
}

/** The focal Coverage of the request, when the Bundle carries it. */
export function focalCoverage(req: PasRequest): Coverage | undefined {
  const focal = req.claim.insurance?.find((i) => i.focal) ?? req.claim.insurance?.[0];
  const c = req.lookup(focal?.coverage, req.claim);
  return c?.resourceType === 'Coverage' ? c : undefined;
}

/** Expedited when the Claim's priority is `stat` (processpriority); `normal` and `deferred` run the standard clock. */
export const isExpedited = (claim: Claim): boolean => (claim.priority?.coding ?? []).some((c) => c.code === 'stat');

// ---- the response projection ----

export interface PasItemView {
  sequence: number;
  action: ItemAction;
  notes: string[];
  /** X12 886 decision reason code (an operator's denial). */
  reasonCode?: string;
  certification?: { start: string; end: string };
  /** When the item's current decision was made (YYYY-MM-DD of the instant). */
  decidedAt?: string;
}

export interface PasErrorView {
  code: { code: string; display: string };
  message: string;
  /** FHIRPath of the element concerned (errorPath). */
  path?: string;
  followup?: { code: string; display: string };
}

/** What one ClaimResponse version says: the stored request plus the current state of each item. */
export interface PasResponseView {
  preAuthRef: string;
  version: number;
  request: Bundle;
  items: PasItemView[];
  errors: PasErrorView[];
  /** Claim-level notes (cancellations, updates). */
  notes: string[];
  /** When this version was made (ClaimResponse.created). */
  createdAt: string;
  humanReviewed: boolean;
}

export type PasResponseKind = 'submit' | 'inquiry';

/** Stable ids of what a version projects to (the ClaimResponse id is the preAuthRef; versions are meta.versionId). */
export const responseBundleId = (preAuthRef: string, version: number, kind: PasResponseKind = 'submit'): string => uuidFrom(`Bundle|${kind}|${preAuthRef}|${version}`);

const reviewAction = (code: ReviewActionCode, number: string, reasonCode?: string): Extension => ({
  url: PAS_EXT.reviewAction,
  extension: [
    { url: PAS_EXT.reviewActionCode, valueCodeableConcept: { coding: [{ system: X12_306, code, display: REVIEW_ACTION[code] }] } },
    { url: 'number', valueString: number },
    ...(reasonCode ? [{ url: 'reasonCode', valueCodeableConcept: { coding: [{ system: X12_886, code: reasonCode }] } }] : []),
  ],
});

/** A ClaimResponse (PAS profile-claimresponse, or profile-claiminquiryresponse for $inquire) for one stored version. */
export function toClaimResponse(view: PasResponseView, kind: PasResponseKind = 'submit'): ClaimResponse {
  const entries = view.request.entry ?? [];
  const claim = entries[0]?.resource as Claim;
  const notes: NonNullable<ClaimResponse['processNote']> = [];
  const note = (text: string): number => {
    notes.push({ number: notes.length + 1, type: 'display', text });
    return notes.length;
  };
  for (const text of view.notes) note(text);
  const items: ClaimResponseItem[] = [];
  for (const it of view.items) {
    if (it.action === 'cancelled') {
      note(`Item ${it.sequence} was cancelled at the provider's request; its authorization no longer applies.`);
      continue;
    }
    const noteNumber = it.notes.map(note);
    const extension: Extension[] = [];
    if (it.action === 'A1' || it.action === 'A3') extension.push({ url: PAS_EXT.itemPreAuthIssueDate, valueDate: it.decidedAt?.slice(0, 10) ?? view.createdAt.slice(0, 10) });
    if (it.action === 'A1' && it.certification) extension.push({ url: PAS_EXT.itemPreAuthPeriod, valuePeriod: { start: it.certification.start, end: it.certification.end } });
    if (it.action === 'A4') extension.push({ url: PAS_EXT.administrationReferenceNumber, valueString: `${view.preAuthRef}-${it.sequence}` });
    items.push({
      ...(extension.length ? { extension } : {}),
      itemSequence: it.sequence,
      ...(noteNumber.length ? { noteNumber } : {}),
      adjudication: [
        {
          category: { coding: [{ system: CODE_SYSTEMS.adjudication, code: 'submitted' }] },
          extension: [reviewAction(it.action, `${view.preAuthRef}-${it.sequence}`, it.reasonCode)],
        },
      ],
    });
  }
  const error: NonNullable<ClaimResponse['error']> = view.errors.map((e) => ({
    extension: [
      ...(e.path ? [{ url: PAS_EXT.errorPath, valueString: e.path }] : []),
      ...(e.followup ? [{ url: PAS_EXT.errorFollowupAction, valueCodeableConcept: { coding: [{ system: X12_889, code: e.followup.code, display: e.followup.display }] } }] : []),
    ],
    code: { coding: [{ system: X12_901, code: e.code.code, display: e.code.display }], text: e.message },
  }));
  for (const e of view.errors) note(e.message);
  const claimEntry = entries[0];
  const outcome: ClaimResponse['outcome'] = view.errors.length ? (items.some((i) => i.adjudication.length) ? 'partial' : 'error') : 'complete';
  return {
    resourceType: 'ClaimResponse',
    id: view.preAuthRef,
    meta: { profile: [kind === 'inquiry' ? PAS_PROFILE.claimInquiryResponse : PAS_PROFILE.claimResponse], versionId: String(view.version), lastUpdated: view.createdAt },
    ...(view.humanReviewed ? { extension: [{ url: PAS_EXT.claimResponseReviewer, extension: [{ url: 'wasHumanReviewedFlag', valueBoolean: true }] }] } : {}),
    identifier: [{ system: PRAUTH_PREAUTH_ID_SYSTEM, value: view.preAuthRef }],
    status: 'active',
    type: claim.type ?? { coding: [{ system: CODE_SYSTEMS.claimType, code: 'professional' }] },
    use: 'preauthorization',
    patient: claim.patient!,
    created: view.createdAt,
    insurer: claim.insurer!,
    requestor: claim.provider,
    request: claimEntry?.fullUrl ? { reference: claimEntry.fullUrl } : claim.id ? { reference: `Claim/${claim.id}` } : claim.identifier?.[0] ? { identifier: claim.identifier[0] } : { display: 'The submitted Claim' },
    outcome,
    preAuthRef: view.preAuthRef,
    ...(items.length ? { item: items } : {}),
    ...(notes.length ? { processNote: notes } : {}),
    ...(error.length ? { error } : {}),
  };
}

/** The response Bundle (profile-pas-response-bundle, or the inquiry response bundle): ClaimResponse first, then the resources it points at. */
export function toPasResponseBundle(view: PasResponseView, kind: PasResponseKind = 'submit'): Bundle {
  const response = toClaimResponse(view, kind);
  const entries = view.request.entry ?? [];
  const claim = entries[0]?.resource as Claim;
  const lookup = bundleLookup(entries);
  const carried: BundleEntry[] = [];
  for (const ref of [claim.patient, claim.insurer, claim.provider] as (Reference | undefined)[]) {
    const r = lookup(ref, claim);
    if (!r || carried.some((e) => e.resource === r)) continue;
    const original = entries.find((e) => e.resource === r);
    carried.push({ fullUrl: original?.fullUrl ?? `urn:uuid:${uuidFrom(`${r.resourceType}/${r.id}`)}`, resource: r as Resource });
  }
  const id = responseBundleId(view.preAuthRef, view.version, kind);
  return {
    resourceType: 'Bundle',
    id,
    meta: { profile: [kind === 'inquiry' ? PAS_PROFILE.inquiryResponseBundle : PAS_PROFILE.responseBundle] },
    identifier: view.request.identifier ?? { system: PRAUTH_PREAUTH_ID_SYSTEM, value: view.preAuthRef },
    type: 'collection',
    timestamp: view.createdAt,
    entry: [{ fullUrl: `urn:uuid:${uuidFrom(`ClaimResponse|${view.preAuthRef}|${view.version}`)}`, resource: response }, ...carried],
  };
}
