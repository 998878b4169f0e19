// What every PAS use case shares: the two collections, a stored version recorded and announced, the response Bundle
// of a submission, who may see it, and the one compare-and-set change with retry (a concurrent writer wins, the loser
// re-reads and re-applies its change).
import type { Scope } from '../../domain/named-scope.js';
import type { ItemDecision } from '../../fhir/pas/decide-item.js';
import { pasCoverageContext, type PasRequest } from '../../fhir/pas/request.js';
import type { ExplicitHints } from '../../fhir/resolve/coverage-context.js';
import { isoDate } from '../../domain/time.js';
import { toPasResponseBundle } from '../../fhir/pas/response.js';
import type { Bundle } from '../../fhir/r4.js';
import { DuplicateKeyError, type Collection } from '../../store/port.js';
import type { PasResponseView } from '../../fhir/pas/views.js';
import {
  PAS_COLLECTIONS,
  toStoredView,
  toView,
  type PasItemDoc,
  type PasResponseDoc,
  type PasSubmissionDoc,
  type ResponseCause,
} from './store.js';
import { AUTO_DECIDE_KIND, type PasCaller, type PasDeps } from './contract.js';

export const addHours = (iso: string, h: number): string => new Date(new Date(iso).getTime() + h * 3600_000).toISOString();

export function itemDoc(d: ItemDecision, at: string, by: string, base?: string): PasItemDoc {
  const final = d.action !== 'A4';
  return {
    sequence: d.sequence,
    action: d.action,
    notes: d.notes,
    ...(d.certification ? { certification: d.certification } : {}),
    ...(final ? { decidedAt: at } : {}),
    ruleId: d.ruleId ?? null,
    subjectKind: d.subjectKind ?? null,
    missing: d.missing ?? [],
    ...(base && d.questionnairePath ? { questionnaire: `${base}${d.questionnairePath}` } : {}),
    history: [{ action: d.action, at, by }],
  };
}

export const statusOf = (items: PasItemDoc[], cancelled: boolean): PasSubmissionDoc['status'] =>
  cancelled || (items.length > 0 && items.every((i) => i.action === 'cancelled')) ? 'cancelled' : items.some((i) => i.action === 'A4') ? 'pended' : 'decided';

/** An item decided without a state and program: pended for a person (a data gap is never a denial). */
export const undeterminedItem = (sequence: number): ItemDecision => ({ sequence, action: 'A4', notes: ["Pended for manual review: the member's state or program could not be determined from the request."] });

export function contextFor(deps: Pick<PasDeps, 'corpus'>, caller: PasCaller, req: PasRequest, hints: ExplicitHints, now: Date) {
  // When the bundle names no state or program and the caller's subscription names exactly one, it is used.
  const fallback: ExplicitHints = { ...(caller.onlyState ? { state: caller.onlyState } : {}), ...(caller.onlyProgram ? { program: caller.onlyProgram } : {}) };
  return pasCoverageContext(deps.corpus.current, req, hints, isoDate(now), fallback);
}

/** A change to a stored submission: the next version to save (with why), or an answer that saves nothing. */
export type Change<A> = { save: PasSubmissionDoc; cause: ResponseCause } | { answer: A };

export interface PasWorkflow {
  deps: PasDeps;
  submissions: Collection<PasSubmissionDoc>;
  responses: Collection<PasResponseDoc>;
  /** The view of one version of an authorization (the current one from the submission, `current` when given), or null. */
  viewOf(preAuthRef: string, version: number, current?: PasSubmissionDoc | null): Promise<PasResponseView | null>;
  bundleOf(doc: PasSubmissionDoc): Bundle;
  visible(caller: PasCaller, doc: PasSubmissionDoc | null): doc is PasSubmissionDoc;
  scopeOf(doc: PasSubmissionDoc): Scope | undefined;
  /** The answer to a caller: the response Bundle and the scope its key must cover. */
  answer(doc: PasSubmissionDoc): { body: Bundle; scope?: Scope };
  scheduleAutoDecide(doc: PasSubmissionDoc): Promise<void>;
  /**
   * Applies `change` to the submission `id` (to `first` on the first try, when given) and saves it only if nobody
   * changed it meanwhile, else re-reads and tries again (5 times); the version it replaces is stored as a past
   * version first, and the saved one is announced.
   */
  changeWithRetry<A>(what: string, id: string, first: PasSubmissionDoc | undefined, change: (cur: PasSubmissionDoc | null) => Change<A>): Promise<{ saved: PasSubmissionDoc } | { answer: A }>;
}

export function createPasWorkflow(deps: PasDeps): PasWorkflow {
  const submissions = deps.store.collection<PasSubmissionDoc>(PAS_COLLECTIONS.submissions);
  const responses = deps.store.collection<PasResponseDoc>(PAS_COLLECTIONS.responses);
  const bundleOf = (doc: PasSubmissionDoc): Bundle => toPasResponseBundle(toView(doc, doc.updatedAt));
  const scopeOf = (doc: PasSubmissionDoc): Scope | undefined => (doc.state && doc.program ? { states: [doc.state], programs: [doc.program] } : undefined);

  /**
   * Stores `cur`, the version a change is about to replace, as a past version, before the submission changes (so no
   * crash leaves a version unreadable). Its view carries the request Bundle only when the next version replaces it;
   * otherwise the request is read from the next version that carries one, or from the submission (viewOf). A
   * concurrent change of the same version may write it too: one that keeps the request only adds what is missing,
   * so a view carrying the request is never replaced by one without it. A submission stored by an earlier release
   * (no `cause`) had each version stored, request included, when it was saved.
   */
  async function keepOutgoing(cur: PasSubmissionDoc, next: PasSubmissionDoc): Promise<void> {
    if (!cur.cause) return;
    const replaced = next.request !== cur.request;
    const view = { ...toStoredView(cur, cur.updatedAt), ...(replaced ? { request: cur.request } : {}) };
    const doc: PasResponseDoc = { id: `${cur.id}/${cur.version}`, preAuthRef: cur.id, owner: cur.owner, version: cur.version, cause: cur.cause, createdAt: cur.updatedAt, view };
    if (replaced) return responses.upsertMany([doc]);
    try {
      await responses.insert(doc);
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  }

  async function viewOf(preAuthRef: string, version: number, current?: PasSubmissionDoc | null): Promise<PasResponseView | null> {
    const doc = current === undefined ? await submissions.findOne({ id: preAuthRef }) : current;
    if (doc && version === doc.version) return toView(doc, doc.updatedAt);
    const versions = new Map((await responses.find({ preAuthRef })).map((d) => [d.version, d.view]));
    const view = versions.get(version);
    if (!view) return null;
    if (view.request) return view as PasResponseView;
    // The same request as the next version that carries one, or as the submission's.
    for (let k = version + 1; doc && k <= doc.version; k++) {
      const request = k === doc.version ? doc.request : versions.get(k)?.request;
      if (request) return { ...view, request };
    }
    return null;
  }

  return {
    deps,
    submissions,
    responses,
    viewOf,
    bundleOf,
    visible: (caller, doc): doc is PasSubmissionDoc => !!doc && (caller.all || doc.owner === caller.owner),
    scopeOf,
    answer(doc) {
      const scope = scopeOf(doc);
      return { body: bundleOf(doc), ...(scope ? { scope } : {}) };
    },
    async scheduleAutoDecide(doc) {
      if (!deps.autoDecide || !deps.outbox || doc.status !== 'pended') return;
      await deps.outbox.enqueue({
        kind: AUTO_DECIDE_KIND,
        payload: { preAuthRef: doc.id, version: doc.version },
        dedupeKey: `${AUTO_DECIDE_KIND}:${doc.id}:${doc.version}`,
        notBefore: new Date(deps.now().getTime() + deps.autoDecide.afterSeconds * 1000),
      });
    },
    async changeWithRetry(what, id, first, change) {
      for (let attempt = 0; attempt < 5; attempt++) {
        const cur = attempt === 0 && first ? first : await submissions.findOne({ id });
        const out = change(cur);
        if ('answer' in out) return out;
        const save: PasSubmissionDoc = { ...out.save, cause: out.cause };
        await keepOutgoing(cur!, save);
        const { id: _id, ...fields } = save;
        if ((await submissions.update({ id, version: cur!.version }, fields)) !== 1) continue;
        await deps.publish({ preAuthRef: out.save.id, owner: out.save.owner, orgIdentifiers: out.save.orgIdentifiers, version: out.save.version, cause: out.cause });
        return { saved: save };
      }
      throw new Error(`${what} kept conflicting with concurrent changes`);
    },
  };
}
