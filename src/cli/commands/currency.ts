// Currency commands: `prauth ingest history`, `prauth staleness`, and the progress display of `prauth ingest`.
// Views go through the running server's admin interface when one holds the data, else over the store directly.
import { Command, InvalidArgumentError } from 'commander';
import cliProgress from 'cli-progress';
import { loadConfig } from '../../config.js';
import { loadReadModel } from '../../corpus/corpus-holder.js';
import { isJurisdiction, normalizeProgram } from '../../domain/vocabulary.js';
import type { IngestProgress } from '../../ingest/run-ingest.js';
import { COLLECTIONS } from '../../store/collections.js';
import type { IngestRunDoc } from '../../services/ingest-runs.js';
import { stalenessReport } from '../../services/staleness.js';
import { openOperator, type Operator } from '../operator.js';

async function withOperator<T>(fn: (op: Operator) => Promise<T>): Promise<T> {
  const op = await openOperator(loadConfig());
  try {
    return await fn(op);
  } finally {
    await op.close();
  }
}

const positiveInt = (max: number) => (v: string): number => {
  if (!/^\d{1,6}$/.test(v) || Number(v) > max) throw new InvalidArgumentError(`expected an integer from 0 to ${max}`);
  return Number(v);
};

/**
 * Progress for `prauth ingest`: a bar (cli-progress) when stderr is a terminal, otherwise a plain line per phase
 * step at most every 10 %, so logs and CI output stay readable. Returns the callback and a finish function.
 */
export function ingestProgress(stream: NodeJS.WriteStream = process.stderr): { onProgress: IngestProgress; finish(): void } {
  if (stream.isTTY) {
    let bar: cliProgress.SingleBar | undefined;
    let phase = '';
    return {
      onProgress(p) {
        if (p.phase !== phase) {
          bar?.stop();
          phase = p.phase;
          bar = new cliProgress.SingleBar(
            { stream, format: `${p.phase === 'validate' ? 'validating' : 'writing   '} [{bar}] {percentage}% | {value}/{total}`, hideCursor: true, clearOnComplete: false },
            cliProgress.Presets.shades_classic,
          );
          bar.start(p.total, 0);
        }
        bar!.update(p.done);
      },
      finish() {
        bar?.stop();
      },
    };
  }
  let last = { phase: '', pct: -1 };
  return {
    onProgress(p) {
      const pct = p.total ? Math.floor((p.done / p.total) * 10) * 10 : 100;
      if (p.phase === last.phase && pct === last.pct) return;
      last = { phase: p.phase, pct };
      stream.write(`${p.phase === 'validate' ? 'validated' : 'wrote'} ${p.done}/${p.total}${p.phase === 'validate' ? ' records' : ' collections'} (${pct}%)\n`);
    },
    finish() {},
  };
}

function describeRun(r: IngestRunDoc): string {
  const counts = r.status === 'ok' || r.status === 'rejected_records'
    ? `added=${r.added} changed=${r.changed} unchanged=${r.unchanged} retired=${r.retired} rejected=${r.rejected} version=${r.corpus_version} notified=${r.notifications_queued ?? 0}`
    : r.error ?? '';
  return `${r.started_at}  ${r.trigger.padEnd(8)}  ${r.status.padEnd(16)}  ${r.source}  ${counts}`.trimEnd();
}

export function registerCurrencyCommands(program: Command): void {
  const ingest = program.commands.find((c) => c.name() === 'ingest');
  const history = (ingest ?? program).command(ingest ? 'history' : 'ingest-history');
  history
    .description('Stored reports of recent ingest runs (scheduled, admin, CLI), newest first')
    .option('--limit <n>', 'how many runs', positiveInt(1000), 20)
    .option('--json', 'print JSON')
    .action(async (_opts: unknown, cmd: Command) => {
      // `ingest` has its own --json: read the options merged with the parent's.
      const opts = cmd.optsWithGlobals<{ limit: number; json?: boolean }>();
      const runs = await withOperator(async (op) =>
        op.via === 'server'
          ? (await op.get<{ runs: IngestRunDoc[] }>(`/v1/admin/ingest/history?limit=${opts.limit}`)).runs
          : op.store!.collection<IngestRunDoc>(COLLECTIONS.ingestRuns).find({}, { sort: { started_at: -1 }, limit: opts.limit }),
      );
      if (opts.json) process.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
      else process.stdout.write(runs.length ? `${runs.map(describeRun).join('\n')}\n` : 'no ingest runs recorded\n');
    });

  program
    .command('staleness')
    .description('Rules whose last_verified is older than a threshold, by state and program')
    .option('--days <n>', 'threshold in days (default STALE_DAYS, 7)', positiveInt(36500))
    .option('--state <code>', 'one state')
    .option('--program <program>', 'one program')
    .option('--limit <n>', 'most stale rules listed', positiveInt(10000), 20)
    .option('--json', 'print JSON')
    .action(async (opts: { days?: number; state?: string; program?: string; limit: number; json?: boolean }) => {
      const config = loadConfig();
      const days = opts.days ?? config.notify.staleDays;
      const state = opts.state?.toUpperCase();
      if (state && !isJurisdiction(state)) throw new InvalidArgumentError(`'${opts.state}' is not a USPS state code or DC`);
      const prog = opts.program ? normalizeProgram(opts.program) : undefined;
      if (opts.program && !prog) throw new InvalidArgumentError(`'${opts.program}' is not a program`);
      const report = (await withOperator(async (op) => {
        if (op.via === 'server') {
          const q = new URLSearchParams({ days: String(days), limit: String(opts.limit), ...(state ? { state } : {}), ...(prog ? { program: prog } : {}) });
          return op.get<Record<string, unknown>>(`/v1/admin/staleness?${q.toString()}`);
        }
        const model = await loadReadModel(op.store!);
        return stalenessReport(model, new Date(), { days, limit: opts.limit, ...(state ? { state } : {}), ...(prog ? { program: prog } : {}) });
      })) as {
        as_of: string;
        threshold_days: number;
        verified_rules: number;
        stale_rules: number;
        oldest_last_verified: string | null;
        oldest_age_days: number | null;
        median_age_days: number | null;
        groups: { state: string; program: string; stale: number; total: number; oldest_last_verified: string }[];
        rules: { rule_id: string; last_verified: string; age_days: number }[];
      };
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
        return;
      }
      const lines = [
        `as of ${report.as_of}: ${report.stale_rules} of ${report.verified_rules} verified rules last verified more than ${report.threshold_days} days ago`,
        `oldest last_verified ${report.oldest_last_verified ?? '-'} (${report.oldest_age_days ?? '-'} days), median age ${report.median_age_days ?? '-'} days`,
        ...report.groups.slice(0, 50).map((g) => `  ${g.state} ${g.program.padEnd(22)} stale ${String(g.stale).padStart(5)} of ${String(g.total).padStart(5)}  oldest ${g.oldest_last_verified}`),
        ...(report.rules.length ? ['most stale:', ...report.rules.map((r) => `  ${r.rule_id}  ${r.last_verified}  ${r.age_days} days`)] : []),
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
      if (report.stale_rules > 0) process.exitCode = 3;
    });
}
