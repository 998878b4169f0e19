// The PAS Task (profile-task) of a pended item whose rule asks for documentation we did not receive: the payer asks
// the provider to answer the rule's DTR Questionnaire (code attachment-request-questionnaire). Filled only from what
// we hold: the PayerURL is the FHIR base the request was made to, the QuestionnaireContext the canonical of the
// rule's Questionnaire, the requester and owner the insurer's and the provider's identifiers from the request.
// No AttachmentsNeeded input: it takes a LOINC attachment code, and our rules name documentation in words only.
import { PAS_EXT, PAS_PROFILE, PAS_TEMP_CODES, PRAUTH_PAS_TASK_SYSTEM } from '../../../fhir-profiles/canonicals.js';
import { uuidFrom } from '../ids.js';
import type { BundleEntry, Claim, Identifier, Reference, Resource } from '../r4.js';
import type { Lookup } from '../resolve/lookup.js';
import type { PasResponseView } from './views.js';
import { recordsOf } from '../../domain/json.js';

const temp = (code: string) => ({ coding: [{ system: PAS_TEMP_CODES, code }] });

/** The identifier a reference carries, else the first identifier (with system and value) of the resource it resolves to. */
function identifierOf(ref: Reference | undefined, claim: Claim, lookup: Lookup): Identifier | undefined {
  if (ref?.identifier?.system && ref.identifier.value) return ref.identifier;
  const r = lookup(ref, claim) as (Resource & { identifier?: Identifier[] }) | undefined;
  return recordsOf<Identifier>(r?.identifier).find((i) => i.system && i.value);
}

/** One Task per pended item that has a rule Questionnaire to answer; none when the request does not identify the insurer and provider. */
export function pasTaskEntries(view: PasResponseView, claim: Claim, claimUrl: string, lookup: Lookup): BundleEntry[] {
  if (!view.payerUrl) return [];
  const requester = identifierOf(claim.insurer, claim, lookup);
  const owner = identifierOf(claim.provider, claim, lookup);
  if (!requester || !owner || !claim.patient) return [];
  return view.items
    .filter((it) => it.action === 'A4' && it.questionnaire)
    .map((it) => {
      const id = `${view.preAuthRef}-${it.sequence}`;
      const task = {
        resourceType: 'Task',
        id: uuidFrom(`Task|${id}`),
        meta: { profile: [PAS_PROFILE.task] },
        identifier: [{ system: PRAUTH_PAS_TASK_SYSTEM, value: id }],
        status: 'requested',
        statusReason: { text: `Item ${it.sequence} is pended: documentation still missing${it.missing?.length ? ` (${it.missing.join('; ')})` : ''}` },
        intent: 'order',
        code: temp('attachment-request-questionnaire'),
        for: claim.patient,
        requester: { ...(claim.insurer?.reference ? { reference: claim.insurer.reference } : {}), identifier: requester },
        owner: { ...(claim.provider?.reference ? { reference: claim.provider.reference } : {}), identifier: owner },
        reasonCode: temp('priorAuthorization'),
        reasonReference: { reference: claimUrl },
        input: [
          { type: temp('payer-url'), valueUrl: view.payerUrl },
          { extension: [{ url: PAS_EXT.serviceLineNumber, valuePositiveInt: it.sequence }], type: temp('questionnaire-context'), valueString: it.questionnaire },
        ],
      } as unknown as Resource;
      return { fullUrl: `urn:uuid:${task.id}`, resource: task };
    });
}
