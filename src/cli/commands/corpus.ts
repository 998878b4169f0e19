// `prauth corpus coverage`: verified coverage per state x program, from the store this CLI reads (directly, or the
// running server's read model through its manifest when a server holds the data directory).
import type { Command } from 'commander';
import { loadConfig } from '../../config.js';
import { coverageOf, renderCoverageMarkdown, TOTAL_COMBINATIONS, type CoverageTable } from '../../domain/coverage.js';
import type { CoverageRuleDoc } from '../../domain/documents.js';
import { PROGRAMS, type Program } from '../../domain/vocabulary.js';
import { COLLECTIONS, readCorpusVersion } from '../../store/collections.js';
import { openOperator } from '../operator.js';

interface ManifestCoverage {
  coverage: { verified: { rules: number; percent: number; by_program: Record<Program, number>; by_state: Record<string, Record<Program, number>> } };
}

export async function readCoverage(): Promise<{ table: CoverageTable; where: string; empty: boolean }> {
  const op = await openOperator(loadConfig());
  try {
    if (op.via === 'server') {
      const v = (await op.get<ManifestCoverage>('/v1/manifest')).coverage.verified;
      return { table: { byState: v.by_state, byProgram: v.by_program, verified: v.rules, total: TOTAL_COMBINATIONS, percent: v.percent }, where: op.where, empty: false };
    }
    const empty = (await readCorpusVersion(op.store!)) === 0;
    const rules = await op.store!.collection<CoverageRuleDoc>(COLLECTIONS.rules).find({ 'verification.status': 'verified' });
    return { table: coverageOf(rules), where: op.where, empty };
  } finally {
    await op.close();
  }
}

export function registerCorpusCommands(program: Command): void {
  const corpus = program.command('corpus').description('What the corpus covers');
  corpus
    .command('coverage')
    .description('Verified program-level rules per state and program (each of 40 subjects), and the totals')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const { table, where, empty } = await readCoverage();
      process.stderr.write(`prauth: read ${where}\n`);
      if (empty) {
        // A fresh data directory: nothing to count yet, which is not the same as nothing verified.
        process.stderr.write('prauth: this store holds no corpus yet; `npm start` loads the bundled corpus on its first start, or run `prauth ingest fixtures`\n');
        process.exitCode = 1;
        return;
      }
      if (opts.json) {
        process.stdout.write(`${JSON.stringify({ verified: table.verified, of_combinations: table.total, percent: table.percent, by_program: table.byProgram, by_state: table.byState }, null, 2)}\n`);
        return;
      }
      process.stdout.write(`${renderCoverageMarkdown(table)}\n\nPer program: ${PROGRAMS.map((p) => `${p} ${table.byProgram[p]}`).join(', ')}\n`);
    });
}
