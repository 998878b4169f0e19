// The public request fixtures of the Inferno kits and the Da Vinci reference implementations (test/kit-requests,
// origins in its SOURCES.md), each with where it is sent and what the acceptance policy says of it: answered, or
// refused naming the element it cannot be processed without. The order matters: PAS updates follow the request they
// update, inquiries follow the submissions they look for.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Program } from '../../src/domain/vocabulary.js';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export type KitTarget = 'cds' | 'submit' | 'inquire' | 'subscription' | 'package';

export interface KitRequest {
  file: string;
  to: KitTarget;
  /** Refused by the policy: the element named (issue expression or CDS issues[0].expression) and why. */
  refused?: { expression: string; why: string };
  /** Answered with a 404 scope gap naming why (no verified rule in the sample corpus for what it asks), not a package. */
  scopeGap?: string;
  /** The key the kit's client would be registered with, when the request names no state or program itself. */
  subscription?: { states: string[]; programs: Program[] };
}

const DIR = fileURLToPath(new URL('../kit-requests/', import.meta.url));
export const kitBody = (file: string): Any => JSON.parse(readFileSync(`${DIR}${file}`, 'utf8'));

const cds = (file: string, refused?: KitRequest['refused']): KitRequest => ({ file, to: 'cds', ...(refused ? { refused } : {}) });

export const KIT_REQUESTS: readonly KitRequest[] = [
  ...[
    'crd-kit-order-sign-1.json',
    'crd-kit-order-sign-2.json',
    'crd-kit-order-select-1.json',
    'crd-kit-order-select-2.json',
    'crd-kit-order-dispatch-1.json',
    'crd-kit-order-dispatch-2.json',
    'crd-kit-appointment-book-1.json',
    'crd-kit-appointment-book-2.json',
    'crd-kit-any-hook.json',
    'crd-kit-encounter-start.json',
    'crd-kit-encounter-discharge.json',
    'crd-kit-spec-appointment-book.json',
    'crd-kit-spec-encounter-start.json',
    'crd-kit-spec-encounter-discharge.json',
    'crd-kit-spec-order-dispatch.json',
    'crd-kit-spec-order-select.json',
    'crd-kit-spec-order-sign.json',
    'crd-ri-deviceRequestEmptyPrefetch_r4.json',
    'crd-ri-deviceRequestFullPrefetchWithCoverage_r4.json',
    'crd-ri-deviceRequestFullPrefetch_r4.json',
    'crd-ri-deviceRequestNoPrefetch.json',
    'crd-ri-deviceRequestNoPrefetchNoDoc.json',
    'crd-ri-deviceRequestPrefetch.json',
    'crd-ri-deviceRequestPrefetchNoDoc.json',
    'crd-ri-requestWithHydratedPrefetchBundle.json',
  ].map((f) => cds(f)),
  cds('crd-ri-medicationRequestPrefetch.json', { expression: 'hook', why: "'medication-prescribe' is a CDS Hooks 1.0 hook CRD 2.0.1 no longer defines; no service answers it" }),
  { file: 'pas-kit-subscription.json', to: 'subscription' },
  { file: 'pas-kit-approval-submit.json', to: 'submit' },
  { file: 'pas-kit-pended-submit.json', to: 'submit' },
  { file: 'pas-kit-pended-inquire.json', to: 'inquire' },
  { file: 'pas-kit-must-support-submit-1.json', to: 'submit' },
  { file: 'pas-kit-must-support-submit-2.json', to: 'submit' },
  { file: 'pas-kit-must-support-inquire.json', to: 'inquire' },
  { file: 'pas-kit-update-initial.json', to: 'submit' },
  { file: 'pas-kit-update-add-item.json', to: 'submit' },
  { file: 'pas-kit-update-modify-cancel.json', to: 'submit' },
  { file: 'pas-kit-update-cancel-all.json', to: 'submit' },
  { file: 'pas-ri-Claim.json', to: 'submit' },
  { file: 'pas-ri-ClaimUpdate1.json', to: 'submit' },
  { file: 'pas-ri-bundle-items.json', to: 'submit' },
  { file: 'pas-ri-claim-only.json', to: 'submit', refused: { expression: 'Claim.item', why: 'a Claim with no items has nothing to review (the RI tests its Claim parsing with it)' } },
  { file: 'pas-ri-claim-minimal.json', to: 'submit', refused: { expression: 'Claim.insurer', why: 'a bare Claim naming no insurer, and no Coverage to take the payer from' } },
  { file: 'dtr-kit-package-input-conformant.json', to: 'package', scopeGap: 'a LOINC gas panel order under a Coverage naming no program: no rule applies' },
  { file: 'dtr-kit-package-input-ri.json', to: 'package', scopeGap: 'the RI fixture holds an empty Coverage and a DeviceRequest with no code: nothing to resolve' },
  { file: 'dtr-kit-preset-static-request.json', to: 'package', subscription: { states: ['MA'], programs: ['medicare_traditional'] } },
];
