// PAS as a payer runs it: every submission stored with its per-item decision history and decision clock; pended
// items decided by an operator (or an automatic rule for test harnesses); $inquire answering the current state;
// updates and cancellations of a stored request; each change a new ClaimResponse version, announced to the
// submitter's subscriptions. Scope: a caller only ever sees the submissions it made.
import { createPasWorkflow } from './workflow.js';
import { submitNew } from './submit.js';
import { decide, extend } from './decide.js';
import { createQueries } from './queries.js';
import type { PasDeps, PasService } from './contract.js';

export function createPasService(deps: PasDeps): PasService {
  const w = createPasWorkflow(deps);
  return {
    submit: (caller, body, hints) => submitNew(w, caller, body, hints),
    decide: (preAuthRef, input) => decide(w, preAuthRef, input),
    extend: (preAuthRef, input) => extend(w, preAuthRef, input),
    ...createQueries(w),
  };
}
