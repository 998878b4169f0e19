// What callers and operators read of stored PAS requests: $inquire matches, a ClaimResponse version, the operator's
// queue of pended requests, the submissions of a year and their CMS-0057-F metrics.
import type { Program } from '../../domain/vocabulary.js';
import { isFailure } from '../../fhir/outcome.js';
import { toPasResponseBundle, toClaimResponse } from '../../fhir/pas/response.js';
import { matchKeys, parseInquiry, toInquiryParameters } from '../../fhir/pas/inquiry.js';
import type { ClaimResponse } from '../../fhir/r4.js';
import { computeMetrics } from './metrics.js';
import { toView, type PasSubmissionDoc } from './store.js';
import type { PasService } from './contract.js';
import type { PasWorkflow } from './workflow.js';

export type PasQueries = Pick<PasService, 'inquire' | 'read' | 'get' | 'responseBundle' | 'queue' | 'metrics' | 'list'>;

export function createQueries(w: PasWorkflow): PasQueries {
  return {
    async inquire(caller, body) {
      const req = parseInquiry(body);
      if (isFailure(req)) return req;
      const keys = matchKeys(req);
      const ownerFilter = caller.all ? {} : { owner: caller.owner };
      const found = new Map<string, PasSubmissionDoc>();
      const add = (docs: PasSubmissionDoc[]) => docs.forEach((d) => found.set(d.id, d));
      for (const v of keys.claimIdentifiers) {
        add(await w.submissions.find({ ...ownerFilter, id: v }));
        add(await w.submissions.find({ ...ownerFilter, claimIdentifiers: v }));
      }
      if (!found.size && keys.memberIds.length && keys.providerIds.length) {
        for (const m of keys.memberIds) add((await w.submissions.find({ ...ownerFilter, memberIds: m })).filter((d) => d.providerIds.some((p) => keys.providerIds.includes(p))));
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
      const doc = await w.submissions.findOne({ id: preAuthRef });
      if (!w.visible(caller, doc)) return null;
      if (version === undefined || version === doc.version) return toClaimResponse(toView(doc, doc.updatedAt));
      const v = await w.viewOf(preAuthRef, version, doc);
      return v ? toClaimResponse(v) : null;
    },

    async get(caller, preAuthRef) {
      const doc = await w.submissions.findOne({ id: preAuthRef });
      return w.visible(caller, doc) ? doc : null;
    },

    async responseBundle(preAuthRef, version) {
      const v = await w.viewOf(preAuthRef, version);
      return v ? toPasResponseBundle(v) : null;
    },

    async queue() {
      const now = w.deps.now().toISOString();
      const pended = await w.submissions.find({ status: 'pended' }, { sort: { dueAt: 1 } });
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

    async metrics(year) {
      return computeMetrics(await w.submissions.find({}), year, w.deps.now());
    },

    async list(filter) {
      const all = await w.submissions.find({});
      return filter.year === undefined ? all : all.filter((d) => new Date(d.receivedAt).getUTCFullYear() === filter.year);
    },
  };
}
