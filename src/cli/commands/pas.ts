// prauth pas: the PAS review queue, decisions on pended items, one request's history, and the CMS-0057-F metrics.
// Through the running server's admin interface when a server holds the data directory (so its subscribers are
// notified at once); otherwise directly on the store, where the notification waits in the durable outbox for the
// next server start.
import { Command, InvalidArgumentError, Option } from 'commander';
import { pino } from 'pino';
import { loadConfig } from '../../config.js';
import { createCorpusHolder } from '../../corpus/corpus-holder.js';
import { parseDecision, parseYear } from '../../api/pas-admin-parse.js';
import { ApiError } from '../../domain/api-error.js';
import { createOutbox } from '../../services/outbox.js';
import type { MetricsReport } from '../../services/pas/metrics.js';
import { createPasService } from '../../services/pas/pas-service.js';
import type { PasService, QueueEntry } from '../../services/pas/contract.js';
import type { PasItemDoc } from '../../services/pas/store.js';
import { createSubscriptionService } from '../../services/pas/subscriptions.js';
import type { DocumentStore } from '../../store/port.js';
import { OperatorError, openOperator, type Operator } from '../operator.js';

interface RequestView {
  preAuthRef: string;
  owner: string;
  status: string;
  version: number;
  state: string | null;
  program: string | null;
  dueAt: string;
  decidedAt: string | null;
  items: PasItemDoc[];
}

async function directPas(store: DocumentStore): Promise<PasService> {
  const now = () => new Date();
  const corpus = await createCorpusHolder(store);
  const outbox = createOutbox({ store, now, log: pino({ level: 'silent' }) });
  const subscriptions = createSubscriptionService({ store, now, outbox, responseBundle: (ref, v) => pas.responseBundle(ref, v) });
  const pas: PasService = createPasService({ store, corpus, now, outbox, publish: (e) => subscriptions.publish(e) });
  return pas;
}

async function withOperator<T>(fn: (op: Operator) => Promise<T>): Promise<T> {
  const op = await openOperator(loadConfig());
  try {
    return await fn(op);
  } finally {
    await op.close();
  }
}

const OPERATOR = { owner: 'operator', all: true, authorize: () => undefined } as const;

function summary(d: { id: string; owner: string; status: string; version: number; state: string | null; program: string | null; dueAt: string; decidedAt: string | null; items: PasItemDoc[] }): RequestView {
  return { preAuthRef: d.id, owner: d.owner, status: d.status, version: d.version, state: d.state, program: d.program, dueAt: d.dueAt, decidedAt: d.decidedAt, items: d.items };
}

const out = (s: string): void => void process.stdout.write(`${s}\n`);

function printRequest(r: RequestView): void {
  out(`${r.preAuthRef}  ${r.status}  version ${r.version}  ${r.state ?? '?'} ${r.program ?? '?'}  due ${r.dueAt}${r.decidedAt ? `  decided ${r.decidedAt}` : ''}`);
  for (const i of r.items) {
    out(`  item ${i.sequence}: ${i.action}${i.reasonCode ? ` (reason ${i.reasonCode})` : ''}${i.certification ? ` valid ${i.certification.start}..${i.certification.end}` : ''}  ${i.history.map((h) => `${h.action}@${h.at.slice(0, 19)} by ${h.by}`).join(' -> ')}`);
  }
}

const positiveInt = (v: string): number => {
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new InvalidArgumentError('expected a positive integer (the Claim item sequence)');
  return Number(v);
};

export function registerPasCommands(program: Command): void {
  const pas = program.command('pas').description('PAS: the review queue, decisions on pended items, CMS-0057-F metrics');

  pas
    .command('queue')
    .description('Pended PAS requests, earliest decision deadline first')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const queue = await withOperator(async (op): Promise<QueueEntry[]> => {
        if (op.adminCall) return (await op.adminCall<{ queue: QueueEntry[] }>('GET', '/v1/admin/pas/queue')).data.queue;
        return (await directPas(op.store!)).queue();
      });
      if (opts.json) return out(JSON.stringify(queue, null, 2));
      if (!queue.length) return out('no pended requests');
      for (const q of queue) {
        out(`${q.preAuthRef}  ${q.expedited ? 'expedited' : 'standard '}  due ${q.dueAt}${q.overdue ? ' OVERDUE' : ''}  ${q.state ?? '?'} ${q.program ?? '?'}  ${q.plan.name ?? q.plan.id ?? ''}`);
        for (const i of q.items) out(`  item ${i.sequence}${i.ruleId ? ` (rule ${i.ruleId})` : ''}${i.missing.length ? `: missing ${i.missing.join('; ')}` : `: ${i.notes[0] ?? ''}`}`);
      }
    });

  pas
    .command('decide')
    .description('Approve or deny pended items of a request (a new ClaimResponse version; the submitter\'s subscriptions are notified)')
    .argument('<preAuthRef>', 'the preAuthRef (PA-...)')
    .option('--item <n>', 'only this item (Claim item sequence); default: every pended item', positiveInt)
    .addOption(new Option('--approve', 'certify (A1)').conflicts('deny'))
    .addOption(new Option('--deny', 'not certified (A3); needs --reason').conflicts('approve'))
    .option('--reason <code>', 'X12 review decision reason code (required with --deny)')
    .option('--note <text>', 'a note for the provider')
    .option('--json', 'print JSON')
    .action(async (ref: string, opts: { item?: number; approve?: boolean; deny?: boolean; reason?: string; note?: string; json?: boolean }) => {
      if (!opts.approve && !opts.deny) throw new OperatorError('say --approve or --deny');
      const body = { decision: opts.approve ? 'approve' : 'deny', ...(opts.item ? { item: opts.item } : {}), ...(opts.reason ? { reason: opts.reason } : {}), ...(opts.note ? { note: opts.note } : {}) };
      let input: ReturnType<typeof parseDecision>;
      try {
        input = parseDecision(body);
      } catch (err) {
        if (err instanceof ApiError) throw new OperatorError(err.message);
        throw err;
      }
      const result = await withOperator(async (op): Promise<RequestView | null> => {
        if (op.adminCall) {
          const r = await op.adminCall<RequestView>('POST', `/v1/admin/pas/${encodeURIComponent(ref)}/decide`, body);
          return r.status === 404 ? null : r.data;
        }
        const d = await (await directPas(op.store!)).decide(ref, { ...input, by: 'operator' });
        if (d.kind === 'not_found') return null;
        if (d.kind === 'conflict') throw new OperatorError(d.message);
        return summary(d.submission);
      });
      if (!result) throw new OperatorError(`no PAS request ${ref}`);
      if (opts.json) return out(JSON.stringify({ ...result, claimResponse: undefined }, null, 2));
      printRequest(result);
    });

  pas
    .command('extend')
    .description('Extend the decision timeframe of a pended request (the provider sees the reason in a new ClaimResponse version)')
    .argument('<preAuthRef>', 'the preAuthRef (PA-...)')
    .requiredOption('--days <n>', 'days to add (1-30)', positiveInt)
    .requiredOption('--reason <text>', 'why the timeframe is extended')
    .option('--json', 'print JSON')
    .action(async (ref: string, opts: { days: number; reason: string; json?: boolean }) => {
      if (opts.days > 30) throw new OperatorError('--days must be from 1 to 30');
      const result = await withOperator(async (op): Promise<RequestView | null> => {
        if (op.adminCall) {
          const r = await op.adminCall<RequestView>('POST', `/v1/admin/pas/${encodeURIComponent(ref)}/extend`, { days: opts.days, reason: opts.reason });
          return r.status === 404 ? null : r.data;
        }
        const d = await (await directPas(op.store!)).extend(ref, { days: opts.days, reason: opts.reason, by: 'operator' });
        if (d.kind === 'not_found') return null;
        if (d.kind === 'conflict') throw new OperatorError(d.message);
        return summary(d.submission);
      });
      if (!result) throw new OperatorError(`no PAS request ${ref}`);
      if (opts.json) return out(JSON.stringify({ ...result, claimResponse: undefined }, null, 2));
      printRequest(result);
    });

  pas
    .command('show')
    .description('One stored request with its per-item decision history')
    .argument('<preAuthRef>', 'the preAuthRef (PA-...)')
    .option('--json', 'print JSON')
    .action(async (ref: string, opts: { json?: boolean }) => {
      const result = await withOperator(async (op): Promise<RequestView | null> => {
        if (op.adminCall) {
          const r = await op.adminCall<RequestView>('GET', `/v1/admin/pas/${encodeURIComponent(ref)}`);
          return r.status === 404 ? null : r.data;
        }
        const d = await (await directPas(op.store!)).get(OPERATOR, ref);
        return d ? summary(d) : null;
      });
      if (!result) throw new OperatorError(`no PAS request ${ref}`);
      if (opts.json) return out(JSON.stringify(result, null, 2));
      printRequest(result);
    });

  pas
    .command('metrics')
    .description('CMS-0057-F prior authorization metrics for a year, per program and plan')
    .option('--year <yyyy>', 'calendar year (default: this year)')
    .option('--json', 'print JSON')
    .action(async (opts: { year?: string; json?: boolean }) => {
      let year: number;
      try {
        year = parseYear(opts.year ?? null, new Date());
      } catch (err) {
        if (err instanceof ApiError) throw new OperatorError(err.message);
        throw err;
      }
      const report = await withOperator(async (op): Promise<MetricsReport> => {
        if (op.adminCall) return (await op.adminCall<MetricsReport>('GET', `/v1/admin/pa-metrics?year=${year}`)).data;
        return (await directPas(op.store!)).metrics(year);
      });
      if (opts.json) return out(JSON.stringify(report, null, 2));
      out(`CMS-0057-F metrics for ${report.year} (left out: ${report.excluded.drug_only_requests} drug-only, ${report.excluded.cancelled_before_decision} cancelled before a decision)`);
      if (!report.rows.length) return out('no requests');
      const pct = (v: number | null) => (v === null ? '-' : `${v}%`);
      const hrs = (v: number | null) => (v === null ? '-' : `${v} h`);
      for (const r of report.rows) {
        out(`${r.program} / ${r.plan} (${r.states.join(',') || '?'})`);
        const s = r.standard;
        out(`  standard:  ${s.decided}/${s.requests} decided, approved ${pct(s.percent_approved)}, denied ${pct(s.percent_denied)}, approved after appeal ${pct(s.percent_approved_after_appeal)}, after extension ${pct(s.percent_approved_after_extension)}, average ${hrs(s.average_decision_hours)}, median ${hrs(s.median_decision_hours)}`);
        const e = r.expedited;
        out(`  expedited: ${e.decided}/${e.requests} decided, approved ${pct(e.percent_approved)}, denied ${pct(e.percent_denied)}, average ${hrs(e.average_decision_hours)}, median ${hrs(e.median_decision_hours)}`);
      }
    });
}
