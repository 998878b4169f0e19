// PAS as a payer runs it: every submission stored with its per-item decision history and decision clock; pended
// items decided by an operator (or an automatic rule for test harnesses); $inquire answering the current state;
// updates and cancellations of a stored request; each change a new ClaimResponse version, announced to the
// submitter's subscriptions. Scope: a caller only ever sees the submissions it made.
import { createHash } from 'node:crypto';
import type { CorpusHolder } from '../../corpus/corpus-holder.js';
import type { Program } from '../../domain/vocabulary.js';
import { stableStringify } from '../../domain/stable-json.js';
import type { Scope } from '../../domain/named-scope.js';
import { isFailure, type Failure } from '../../fhir/outcome.js';
import {
  claimCancelled,
  decideItem,
  DEFAULT_CERTIFICATION_DAYS,
  focalCoverage,
  isExpedited,
  itemCancelled,
  parsePasRequest,
  pasCoverageContext,
  priorOf,
  toPasResponseBundle,
  type ItemDecision,
  type PasErrorView,
  type PasRequest,
} from '../../fhir/pas.js';
import { matchKeys, parseInquiry, requestorOrgIdentifiers, toInquiryParameters } from '../../fhir/pas-inquiry.js';
import type { Bundle, ClaimItem, ClaimResponse, Organization, Parameters } from '../../fhir/r4.js';
import { isoDate, shortHash } from '../../fhir/ids.js';
import type { ExplicitHints } from '../../fhir/resolve.js';
import { toClaimResponse } from '../../fhir/pas.js';
import { DuplicateKeyError, type DocumentStore } from '../../store/port.js';
import type { Outbox } from '../outbox.js';
import { X12_FOLLOWUP, X12_REJECT, PAS_EXT } from '../../../fhir-profiles/canonicals.js';
import { computeMetrics, type MetricsReport } from './metrics.js';
import { PAS_COLLECTIONS, toView, type PasItemDoc, type PasResponseDoc, type PasSubmissionDoc, type ResponseCause } from './store.js';

/** Who is calling, as the PAS service needs it. */
export interface PasCaller {
  /** The owner of what this call stores: `key:<id>`, `operator` (later `client:<id>`). */
  owner: string;
  /** Operators see every submission. */
  all: boolean;
  /** The caller's subscription, when it names exactly one state / program (used when the bundle names none). */
  onlyState?: string;
  onlyProgram?: Program;
  /** Throws the 403 when the scope is outside the caller's subscription; called before anything is stored. */
  authorize(scope: Scope): void;
}

/** A new ClaimResponse version to announce (the subscriptions service delivers it). */
export interface PasEvent {
  preAuthRef: string;
  owner: string;
  orgIdentifiers: string[];
  version: number;
  cause: ResponseCause;
}

/** What the PAS workflow needs from the shared durable outbox. */
export type DeferredWork = Pick<Outbox, 'enqueue' | 'handle'>;

export interface PasDeps {
  store: DocumentStore;
  corpus: Pick<CorpusHolder, 'current'>;
  now: () => Date;
  /** Announces a new version to subscriptions (after it is stored). */
  publish: (event: PasEvent) => Promise<void>;
  /** The durable outbox, for automatic decisions when configured. */
  outbox?: DeferredWork;
  autoDecide?: { action: 'approve' | 'deny'; afterSeconds: number };
}

export interface DecideInput {
  item?: number;
  decision: 'approve' | 'deny';
  /** X12 886 review decision reason code. */
  reasonCode?: string;
  note?: string;
  by?: string;
}
export type DecideOutcome =
  | { kind: 'ok'; submission: PasSubmissionDoc; bundle: Bundle }
  | { kind: 'not_found' }
  | { kind: 'conflict'; message: string };

export interface QueueEntry {
  preAuthRef: string;
  owner: string;
  state: string | null;
  program: Program | null;
  plan: { id: string | null; name: string | null };
  expedited: boolean;
  receivedAt: string;
  dueAt: string;
  overdue: boolean;
  items: { sequence: number; ruleId: string | null; missing: string[]; notes: string[] }[];
}

export interface PasService {
  submit(caller: PasCaller, body: unknown, hints: ExplicitHints): Promise<{ body: Bundle; scope?: Scope } | Failure>;
  inquire(caller: PasCaller, body: unknown): Promise<{ body: Parameters; scope?: Scope } | Failure>;
  read(caller: PasCaller, preAuthRef: string, version?: number): Promise<ClaimResponse | null>;
  /** The submission as stored (history included), for the caller's own submissions or an operator. */
  get(caller: PasCaller, preAuthRef: string): Promise<PasSubmissionDoc | null>;
  /** The response Bundle of a stored version (notifications). */
  responseBundle(preAuthRef: string, version: number): Promise<Bundle | null>;
  queue(): Promise<QueueEntry[]>;
  decide(preAuthRef: string, input: DecideInput): Promise<DecideOutcome>;
  /** Extends the decision timeframe of a pended request (reported by the CMS-0057-F metrics). */
  extend(preAuthRef: string, input: { days: number; reason: string; by?: string }): Promise<DecideOutcome>;
  list(filter: { year?: number }): Promise<PasSubmissionDoc[]>;
  /** CMS-0057-F metrics for a calendar year, per program and plan. */
  metrics(year: number): Promise<MetricsReport>;
}

/** CMS-0057-F decision timeframes for items and services: 7 calendar days standard, 72 hours expedited. */
export const CMS_0057_HOURS = { standardHours: 168, expeditedHours: 72 } as const;
export const AUTO_DECIDE_KIND = 'pas.auto-decide';

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');

/**
 * The idempotency key of a request: its identifier (the Bundle's, else the Claim's) AND the Claim's content. The same
 * Bundle sent again is the same submission (the same authorization, in its current state); two different Claims
 * under one transaction identifier are two submissions (test harnesses reuse one Bundle.identifier for every
 * request, the PAS test kit among them).
 */
function dedupeKeyOf(owner: string, req: PasRequest): string {
  const b = req.bundle.identifier;
  const ids = (req.claim.identifier ?? []).map((i) => `${i.system ?? ''}|${i.value ?? ''}`).sort();
  const id = b?.value ? `bundle:${b.system ?? ''}|${b.value}` : ids.length ? `claim:${ids.join(',')}` : 'none';
  return sha(`${owner}\n${id}\ncontent:${sha(stableStringify(req.claim))}`);
}

const addHours = (iso: string, h: number): string => new Date(new Date(iso).getTime() + h * 3600_000).toISOString();

function certificationFor(item: ClaimItem | undefined, now: Date): { start: string; end: string } {
  const p = item?.servicedPeriod;
  if (p?.start && p.end) return { start: p.start.slice(0, 10), end: p.end.slice(0, 10) };
  const start = item?.servicedDate?.slice(0, 10) ?? p?.start?.slice(0, 10) ?? isoDate(now);
  const end = new Date(`${start}T00:00:00Z`);
  end.setUTCDate(end.getUTCDate() + DEFAULT_CERTIFICATION_DAYS);
  return { start, end: isoDate(end) };
}

function itemDoc(d: ItemDecision, at: string, by: string): PasItemDoc {
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
    history: [{ action: d.action, at, by }],
  };
}

const statusOf = (items: PasItemDoc[], cancelled: boolean): PasSubmissionDoc['status'] =>
  cancelled || (items.length > 0 && items.every((i) => i.action === 'cancelled')) ? 'cancelled' : items.some((i) => i.action === 'A4') ? 'pended' : 'decided';

export function createPasService(deps: PasDeps): PasService {
  const submissions = deps.store.collection<PasSubmissionDoc>(PAS_COLLECTIONS.submissions);
  const responses = deps.store.collection<PasResponseDoc>(PAS_COLLECTIONS.responses);

  async function recordVersion(doc: PasSubmissionDoc, cause: ResponseCause): Promise<void> {
    await responses.upsertMany([{ id: `${doc.id}/${doc.version}`, preAuthRef: doc.id, owner: doc.owner, version: doc.version, cause, createdAt: doc.updatedAt, view: toView(doc, doc.updatedAt) }]);
  }
  const bundleOf = (doc: PasSubmissionDoc): Bundle => toPasResponseBundle(toView(doc, doc.updatedAt));
  const visible = (caller: PasCaller, doc: PasSubmissionDoc | null): doc is PasSubmissionDoc => !!doc && (caller.all || doc.owner === caller.owner);
  const scopeOf = (doc: PasSubmissionDoc): Scope | undefined => (doc.state && doc.program ? { states: [doc.state], programs: [doc.program] } : undefined);

  async function scheduleAutoDecide(doc: PasSubmissionDoc): Promise<void> {
    if (!deps.autoDecide || !deps.outbox || doc.status !== 'pended') return;
    await deps.outbox.enqueue({
      kind: AUTO_DECIDE_KIND,
      payload: { preAuthRef: doc.id, version: doc.version },
      dedupeKey: `${AUTO_DECIDE_KIND}:${doc.id}:${doc.version}`,
      notBefore: new Date(deps.now().getTime() + deps.autoDecide.afterSeconds * 1000),
    });
  }

  /** Writes a changed submission if nobody else changed it meanwhile; false means re-read and retry. */
  async function save(prev: number, doc: PasSubmissionDoc): Promise<boolean> {
    const { id: _id, ...fields } = doc;
    return (await submissions.update({ id: doc.id, version: prev }, fields)) === 1;
  }

  async function publish(doc: PasSubmissionDoc, cause: ResponseCause): Promise<void> {
    await deps.publish({ preAuthRef: doc.id, owner: doc.owner, orgIdentifiers: doc.orgIdentifiers, version: doc.version, cause });
  }

  /**
   * The stored request an update points at (related.claim): by preAuthRef, Claim identifier or Claim reference. A
   * harness reuses its identifiers and fullUrls for every request (the PAS kit's all name
   * Claim/ReferralAuthorizationExample), so of several matches the most recently changed one is the prior request.
   */
  async function findPrior(caller: PasCaller, req: PasRequest): Promise<PasSubmissionDoc | null> {
    const prior = priorOf(req.claim);
    if (!prior) return null;
    const ownerFilter = caller.all ? {} : { owner: caller.owner };
    const latest = async (filter: Record<string, unknown>): Promise<PasSubmissionDoc | null> => (await submissions.find({ ...ownerFilter, ...filter }, { sort: { updatedAt: -1 }, limit: 1 }))[0] ?? null;
    for (const v of prior.identifiers) {
      const byRef = await submissions.findOne({ ...ownerFilter, id: v });
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

  function newDoc(caller: PasCaller, req: PasRequest, key: string, at: string): Omit<PasSubmissionDoc, 'id' | 'state' | 'program' | 'plan' | 'items' | 'errors' | 'dueAt' | 'status' | 'decidedAt'> {
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
      version: 1,
      updatedAt: at,
    };
  }

  async function submitUpdate(caller: PasCaller, req: PasRequest, key: string, prior: PasSubmissionDoc, hints: ExplicitHints): Promise<{ body: Bundle; scope?: Scope } | Failure> {
    const scope = scopeOf(prior);
    if (scope) caller.authorize(scope);
    for (let attempt = 0; attempt < 5; attempt++) {
      const cur = attempt === 0 ? prior : await submissions.findOne({ id: prior.id });
      if (!cur) break;
      const now = deps.now();
      const at = now.toISOString();
      const by = caller.owner;
      const wholeCancel = claimCancelled(req.claim);
      const model = deps.corpus.current;
      const cc = cur.state && cur.program ? { state: cur.state, program: cur.program } : contextFor(caller, req, hints, now);
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
        if (!cc.state || !cc.program) continue;
        const d = decideItem(model, req, item, { state: cc.state, program: cc.program as Program }, now);
        const fresh = itemDoc(d, at, 'rules');
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
      if (!(await save(cur.version, next))) continue;
      const cause: ResponseCause = status === 'cancelled' ? 'cancelled' : 'updated';
      await recordVersion(next, cause);
      await publish(next, cause);
      await scheduleAutoDecide(next);
      return { body: bundleOf(next), ...(scopeOf(next) ? { scope: scopeOf(next)! } : {}) };
    }
    throw new Error(`PAS update of ${prior.id} kept conflicting with concurrent changes`);
  }

  function contextFor(caller: PasCaller, req: PasRequest, hints: ExplicitHints, now: Date) {
    // When the bundle names no state or program and the caller's subscription names exactly one, it is used.
    const fallback: ExplicitHints = { ...(caller.onlyState ? { state: caller.onlyState } : {}), ...(caller.onlyProgram ? { program: caller.onlyProgram } : {}) };
    return pasCoverageContext(deps.corpus.current, req, hints, isoDate(now), fallback);
  }

  return {
    async submit(caller, body, hints) {
      const req = parsePasRequest(body);
      if (isFailure(req)) return req;
      const key = dedupeKeyOf(caller.owner, req);
      const seen = await submissions.findOne({ owner: caller.owner, dedupeKeys: key });
      if (seen) {
        // The same Bundle again: the same authorization, in its current state.
        const scope = scopeOf(seen);
        return { body: bundleOf(seen), ...(scope ? { scope } : {}) };
      }
      const now = deps.now();
      const at = now.toISOString();
      if (priorOf(req.claim)) {
        const prior = await findPrior(caller, req);
        if (prior) return submitUpdate(caller, req, key, prior, hints);
      }
      const cc = contextFor(caller, req, hints, now);
      const errors: PasErrorView[] = [];
      let decisions: ItemDecision[];
      if (priorOf(req.claim)) {
        // An update whose prior request we do not hold (or the caller does not own): answered, never guessed.
        errors.push({ code: X12_REJECT.authorizationNotFound, path: `${req.claimPath}.related[0].claim`, followup: X12_FOLLOWUP.correctAndResubmit, message: 'The prior request this update points at (related.claim) is not one of your stored requests; send it as a new request or correct the reference.' });
        decisions = [];
      } else if (!cc.state || !cc.program) {
        const unknown = cc.basis.filter((b) => b.includes('unknown')).join('; ');
        errors.push({ code: X12_REJECT.requiredDataMissing, path: `${req.claimPath}.insurance`, followup: X12_FOLLOWUP.correctAndResubmit, message: `Cannot tell the member's state and program (${unknown}). The items are pended for manual review; resubmit with a Coverage naming the program (Coverage.class or an SOPT Coverage.type) and the member's state, or ?state=&program=.` });
        decisions = req.claim.item!.map((i) => ({ sequence: i.sequence, action: 'A4' as const, notes: ['Pended for manual review: the member\'s state or program could not be determined from the request.'] }));
      } else {
        caller.authorize({ states: [cc.state], programs: [cc.program] });
        decisions = req.claim.item!.map((item) => decideItem(deps.corpus.current, req, item, { state: cc.state!, program: cc.program!, ...(cc.payer ? { payer: cc.payer } : {}) }, now));
      }
      if (!focalCoverage(req) && !errors.length) {
        errors.push({ code: X12_REJECT.requiredDataMissing, path: `${req.claimPath}.insurance`, followup: X12_FOLLOWUP.correctAndResubmit, message: 'The request carries no Coverage for the member (Claim.insurance.coverage): the member\'s plan is unknown, so plan-specific rules were not applied.' });
      }
      const expedited = isExpedited(req.claim);
      const hours = decisions.map((d) => (expedited ? d.turnaround?.expeditedHours : d.turnaround?.standardHours)).filter((h): h is number => typeof h === 'number' && h > 0);
      const clock = hours.length ? Math.min(...hours) : expedited ? CMS_0057_HOURS.expeditedHours : CMS_0057_HOURS.standardHours;
      const items = decisions.map((d) => itemDoc(d, at, 'rules'));
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
      };
      try {
        await submissions.insert(doc);
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
        const raced = await submissions.findOne({ id: doc.id });
        if (!raced) throw err;
        return { body: bundleOf(raced), ...(scopeOf(raced) ? { scope: scopeOf(raced)! } : {}) };
      }
      await recordVersion(doc, 'submitted');
      await scheduleAutoDecide(doc);
      return { body: bundleOf(doc), ...(scopeOf(doc) ? { scope: scopeOf(doc)! } : {}) };
    },

    async inquire(caller, body) {
      const req = parseInquiry(body);
      if (isFailure(req)) return req;
      const keys = matchKeys(req);
      const ownerFilter = caller.all ? {} : { owner: caller.owner };
      const found = new Map<string, PasSubmissionDoc>();
      const add = (docs: PasSubmissionDoc[]) => docs.forEach((d) => found.set(d.id, d));
      for (const v of keys.claimIdentifiers) {
        add(await submissions.find({ ...ownerFilter, id: v }));
        add(await submissions.find({ ...ownerFilter, claimIdentifiers: v }));
      }
      if (!found.size && keys.memberIds.length && keys.providerIds.length) {
        for (const m of keys.memberIds) add((await submissions.find({ ...ownerFilter, memberIds: m })).filter((d) => d.providerIds.some((p) => keys.providerIds.includes(p))));
      }
      // PAS 2.2.1: the member and the provider (or the request's own identifiers) identify the request; the items of
      // an inquiry describe it but do not narrow the match (an X12 278 inquiry names services as the provider knows
      // them, e.g. HCPCS where the request used X12 service types). Newest first.
      const matches = [...found.values()].sort((a, b) => b.receivedAt.localeCompare(a.receivedAt));
      const states = [...new Set(matches.map((m) => m.state).filter((s): s is string => !!s))];
      const programs = [...new Set(matches.map((m) => m.program).filter((p): p is Program => !!p))];
      return {
        body: toInquiryParameters(matches.map((d) => toPasResponseBundle(toView(d, d.updatedAt), 'inquiry'))),
        ...(states.length || programs.length ? { scope: { states, programs } } : {}),
      };
    },

    async read(caller, preAuthRef, version) {
      const doc = await submissions.findOne({ id: preAuthRef });
      if (!visible(caller, doc)) return null;
      if (version === undefined || version === doc.version) return toClaimResponse(toView(doc, doc.updatedAt));
      const v = await responses.findOne({ id: `${preAuthRef}/${version}` });
      return v ? toClaimResponse(v.view) : null;
    },

    async get(caller, preAuthRef) {
      const doc = await submissions.findOne({ id: preAuthRef });
      return visible(caller, doc) ? doc : null;
    },

    async responseBundle(preAuthRef, version) {
      const v = await responses.findOne({ id: `${preAuthRef}/${version}` });
      return v ? toPasResponseBundle(v.view) : null;
    },

    async queue() {
      const now = deps.now().toISOString();
      const pended = await submissions.find({ status: 'pended' }, { sort: { dueAt: 1 } });
      return pended.map((d) => ({
        preAuthRef: d.id,
        owner: d.owner,
        state: d.state,
        program: d.program,
        plan: d.plan,
        expedited: d.expedited,
        receivedAt: d.receivedAt,
        dueAt: d.dueAt,
        overdue: d.dueAt < now,
        items: d.items.filter((i) => i.action === 'A4').map((i) => ({ sequence: i.sequence, ruleId: i.ruleId, missing: i.missing, notes: i.notes })),
      }));
    },

    async decide(preAuthRef, input) {
      for (let attempt = 0; attempt < 5; attempt++) {
        const cur = await submissions.findOne({ id: preAuthRef });
        if (!cur) return { kind: 'not_found' };
        if (cur.status === 'cancelled') return { kind: 'conflict', message: `${preAuthRef} was cancelled by the provider` };
        const targets = cur.items.filter((i) => (input.item === undefined ? i.action === 'A4' : i.sequence === input.item));
        if (input.item !== undefined && !targets.length) return { kind: 'conflict', message: `${preAuthRef} has no item ${input.item}` };
        if (!targets.length) return { kind: 'conflict', message: `${preAuthRef} has no pended item to decide` };
        const bad = targets.find((i) => i.action === 'cancelled' || i.action === 'A1');
        if (bad) return { kind: 'conflict', message: `Item ${bad.sequence} of ${preAuthRef} is ${bad.action === 'A1' ? 'already certified' : 'cancelled'}` };
        if (input.decision === 'deny' && targets.some((i) => i.action === 'A3')) return { kind: 'conflict', message: `Item already not certified; an appeal can only approve it` };
        const now = deps.now();
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
          if (i.action === 'A1') i.certification = certificationFor(claimItem, now);
          else delete i.certification;
          if (input.reasonCode) i.reasonCode = input.reasonCode;
          else delete i.reasonCode;
          const verb = i.action === 'A1' ? (appeal ? 'Certified on appeal' : 'Certified after review') : 'Not certified after review';
          i.notes = [`${verb}${i.certification ? `, valid ${i.certification.start} to ${i.certification.end}` : ''}.${input.note ? ` ${input.note}` : ''}`];
          i.history.push({ action: i.action, at, by, ...(input.reasonCode ? { reasonCode: input.reasonCode } : {}) });
        }
        const status = statusOf(items, false);
        const next: PasSubmissionDoc = { ...cur, items, status, decidedAt: status === 'pended' ? null : at, humanReviewed: by !== 'auto' || cur.humanReviewed, version: cur.version + 1, updatedAt: at };
        if (!(await save(cur.version, next))) continue;
        await recordVersion(next, 'decided');
        await publish(next, 'decided');
        return { kind: 'ok', submission: next, bundle: bundleOf(next) };
      }
      throw new Error(`decision on ${preAuthRef} kept conflicting with concurrent changes`);
    },

    async extend(preAuthRef, input) {
      for (let attempt = 0; attempt < 5; attempt++) {
        const cur = await submissions.findOne({ id: preAuthRef });
        if (!cur) return { kind: 'not_found' };
        if (cur.status !== 'pended') return { kind: 'conflict', message: `${preAuthRef} is ${cur.status}: only a pended request's timeframe can be extended` };
        const at = deps.now().toISOString();
        const dueAt = addHours(cur.dueAt, input.days * 24);
        const next: PasSubmissionDoc = {
          ...cur,
          dueAt,
          extendedAt: at,
          notes: [...cur.notes, `The decision timeframe was extended by ${input.days} day${input.days > 1 ? 's' : ''} (now due ${dueAt}): ${input.reason}`],
          version: cur.version + 1,
          updatedAt: at,
        };
        if (!(await save(cur.version, next))) continue;
        await recordVersion(next, 'updated');
        await publish(next, 'updated');
        return { kind: 'ok', submission: next, bundle: bundleOf(next) };
      }
      throw new Error(`extension of ${preAuthRef} kept conflicting with concurrent changes`);
    },

    async metrics(year) {
      return computeMetrics(await submissions.find({}), year, deps.now());
    },

    async list(filter) {
      const all = await submissions.find({});
      return filter.year === undefined ? all : all.filter((d) => new Date(d.receivedAt).getUTCFullYear() === filter.year);
    },
  };
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
