// PAS response projections: the ClaimResponse of a stored submission version and the response Bundle ($submit, $inquire).
import {
  CODE_SYSTEMS,
  PAS_EXT,
  PAS_PROFILE,
  PRAUTH_PREAUTH_ID_SYSTEM,
  REVIEW_ACTION,
  X12_306,
  X12_886,
  X12_889,
  X12_901,
  type ReviewActionCode,
} from '../../../fhir-profiles/canonicals.js';
import { uuidFrom } from '../ids.js';
import type { Bundle, BundleEntry, Claim, ClaimResponse, ClaimResponseItem, Extension } from '../r4.js';
import { bundleLookup } from '../resolve/lookup.js';
import { pasTaskEntries } from './task.js';
import type { PasResponseKind, PasResponseView } from './views.js';
import {
  authorizedExtensions,
  authorizedProviders,
  carriedEntries,
  echoedIdentifiers,
  echoedItemExtensions,
  requestItem,
  spanOf,
} from './response-echo.js';

// ---- the response projection ----


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
      // PAS 2.2.1 (spec-46): the current result of every submitted item, cancelled ones included; a cancelled item
      // carries no reviewAction (no X12 306 action is a cancellation), only the note saying so.
      items.push({ itemSequence: it.sequence, noteNumber: [note(`Item ${it.sequence} was cancelled at the provider's request; its authorization no longer applies.`)], adjudication: [{ category: { coding: [{ system: CODE_SYSTEMS.adjudication, code: 'submitted' }] } }] });
      continue;
    }
    const noteNumber = it.notes.map(note);
    const asked = requestItem(claim, it.sequence);
    const extension: Extension[] = echoedItemExtensions(claim, asked);
    if (it.action === 'A1' || it.action === 'A3') extension.push({ url: PAS_EXT.itemPreAuthIssueDate, valueDate: it.decidedAt?.slice(0, 10) ?? view.createdAt.slice(0, 10) });
    if (it.action === 'A1' && it.certification) extension.push({ url: PAS_EXT.itemPreAuthPeriod, valuePeriod: { start: it.certification.start, end: it.certification.end } });
    if (it.action === 'A4') extension.push({ url: PAS_EXT.administrationReferenceNumber, valueString: `${view.preAuthRef}-${it.sequence}` });
    if (it.action === 'A1') extension.push(...authorizedExtensions(claim, asked));
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
  // Claim-level: the one action every live item shares, and the span of the certified periods.
  const live = view.items.filter((i) => i.action !== 'cancelled');
  const shared = live.length && live.every((i) => i.action === live[0]!.action) ? (live[0]!.action as ReviewActionCode) : undefined;
  const preAuthPeriod = shared === 'A1' ? spanOf(live.flatMap((i) => (i.certification ? [i.certification] : []))) : undefined;
  const reviewer: Extension = { url: PAS_EXT.claimResponseReviewer, extension: [{ url: 'wasHumanReviewedFlag', valueBoolean: view.humanReviewed }] };
  // partial: business problems beside items that were decided or pended (a cancelled item carries no reviewAction).
  const outcome: ClaimResponse['outcome'] = view.errors.length ? (items.some((i) => i.adjudication.some((a) => a.extension?.length)) ? 'partial' : 'error') : 'complete';
  return {
    resourceType: 'ClaimResponse',
    id: view.preAuthRef,
    meta: { profile: [kind === 'inquiry' ? PAS_PROFILE.claimInquiryResponse : PAS_PROFILE.claimResponse], versionId: String(view.version), lastUpdated: view.createdAt },
    extension: [reviewer, ...(shared === 'A1' ? authorizedProviders(claim) : [])],
    identifier: [{ system: PRAUTH_PREAUTH_ID_SYSTEM, value: view.preAuthRef }, ...echoedIdentifiers(claim)],
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
    ...(preAuthPeriod ? { preAuthPeriod } : {}),
    ...(items.length ? { item: items } : {}),
    ...(shared ? { adjudication: [{ category: { coding: [{ system: CODE_SYSTEMS.adjudication, code: 'submitted' }] }, extension: [reviewAction(shared, view.preAuthRef)] }] } : {}),
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
  const carried: BundleEntry[] = carriedEntries(view.request, claim, lookup);
  const claimUrl = response.request?.reference ?? `Claim/${claim.id ?? view.preAuthRef}`;
  const tasks = pasTaskEntries(view, claim, claimUrl, lookup);
  const id = responseBundleId(view.preAuthRef, view.version, kind);
  return {
    resourceType: 'Bundle',
    id,
    meta: { profile: [kind === 'inquiry' ? PAS_PROFILE.inquiryResponseBundle : PAS_PROFILE.responseBundle] },
    identifier: view.request.identifier ?? { system: PRAUTH_PREAUTH_ID_SYSTEM, value: view.preAuthRef },
    type: 'collection',
    timestamp: view.createdAt,
    entry: [{ fullUrl: `urn:uuid:${uuidFrom(`ClaimResponse|${view.preAuthRef}|${view.version}`)}`, resource: response }, ...carried, ...tasks],
  };
}

