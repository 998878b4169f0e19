// prauth: the operator CLI (commander). Works whether or not the server is running: see ./operator.ts.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command } from 'commander';
import { ConfigError, loadConfig } from '../config.js';
import { ENDPOINT_GROUPS, type EndpointGroup } from '../domain/endpoint-groups.js';
import type { Program } from '../domain/vocabulary.js';
import type { IngestReport } from '../ingest/run-ingest.js';
import type { PublicKeyRecord } from '../services/keys.js';
import { registerClientCommands } from './commands/clients.js';
import { OperatorError, openOperator, type Operator } from './operator.js';
import { registerPasCommands } from './commands/pas.js';
import { registerCorpusCommands } from './commands/corpus.js';
import { ingestProgress, registerCurrencyCommands } from './commands/currency.js';
import { list, parseGroup, parseProgram, parseState, printRevocation } from './parse-options.js';
import type { ResourceType } from '../domain/documents.js';
import { KIND_FILES, kindOf, MINIMAL_RECORDS } from '../ingest/ingest-doc.js';
import { DOCUMENT_SCHEMAS } from '../ingest/schemas/index.js';

function printReport(r: IngestReport): void {
  const lines = [
    `files: ${r.files.length}, records: ${r.received}`,
    `added: ${r.added}, changed: ${r.changed}, unchanged: ${r.unchanged}, retired: ${r.retired}, rejected: ${r.rejected.length}`,
    r.corpusChanged ? `corpus version is now ${r.corpusVersion}` : `nothing changed (corpus version ${r.corpusVersion})`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  for (const x of r.rejected.slice(0, 50)) process.stderr.write(`rejected ${x.file}:${x.line}${x.id !== undefined ? ` (${x.id})` : ''}: ${x.reason}\n`);
  if (r.rejected.length > 50) process.stderr.write(`... and ${r.rejected.length - 50} more rejected records\n`);
}

function describeKey(k: PublicKeyRecord): string {
  const scope = [
    `states=${k.states.length ? k.states.join(',') : 'all'}`,
    `programs=${k.programs.length ? k.programs.join(',') : 'all'}`,
    `groups=${k.groups.length ? k.groups.join(',') : 'all'}`,
    k.compare ? 'compare' : '',
    k.admin ? 'admin' : '',
  ].filter(Boolean);
  return `${k.id}  ${k.revokedAt ? 'revoked' : 'active '}  ...${k.hint}  ${k.name}  ${scope.join(' ')}`;
}

/** Opens the store (directly, or through the server that holds it), says what the operator should know, runs. */
async function withOperator<T>(fn: (op: Operator) => Promise<T>, write: boolean | ((out: T) => boolean) = false): Promise<T> {
  const op = await openOperator(loadConfig());
  for (const w of op.warnings) process.stderr.write(`prauth: warning: ${w}\n`);
  try {
    const out = await fn(op);
    if (typeof write === 'function' ? write(out) : write) process.stderr.write(`prauth: wrote to ${op.where}\n`);
    else if (write === false || typeof write === 'function') process.stderr.write(`prauth: read ${op.where}\n`);
    return out;
  } finally {
    await op.close();
  }
}

const SETTINGS_HELP = `
Settings (environment variables; the same as the server's):
  PRAUTH_DATA_DIR   embedded store directory (default ./data); use the running server's value
  MONGODB_URI       use MongoDB instead of the embedded store (MONGODB_DB names the database, default prauth)
  LOG_LEVEL         pino level for messages of the store layer (default info)
With the embedded store, writes go through a server that holds the data directory, or directly when none does.
Every write says where it went. Docs: README.md, docs/ingest.md (the ingest format).`;

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export function buildCli(): Command {
  const program = new Command('prauth')
    .description('Operator CLI for the prior-authorization rules service')
    .version(packageVersion(), '-V, --version', 'print the version')
    .addHelpText('after', SETTINGS_HELP)
    .showHelpAfterError()
    .exitOverride((err) => {
      process.exit(err.exitCode);
    });

  program
    .command('ingest')
    .description('Validate and apply canonical documents from an NDJSON/JSON file or a directory')
    .argument('<path>', 'file or directory')
    .option('--json', 'print the report as JSON')
    .action(async (path: string, opts: { json?: boolean }) => {
      const full = resolve(path);
      if (!existsSync(full)) throw new OperatorError(`${full}: no such file or directory (give an NDJSON or JSON file, or a directory of them; format: docs/ingest.md)`);
      const progress = ingestProgress();
      const report = await withOperator((op) => op.ingest(full, progress.onProgress), (r) => r.corpusChanged).finally(() => progress.finish());
      if (opts.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else printReport(report);
      if (report.rejected.length) process.exitCode = 2;
    });

  registerCurrencyCommands(program);

  const keys = program.command('keys').description('Issue, list and revoke API keys');
  keys
    .command('create')
    .description('Issue a key; it is shown once and stored only as a hash')
    .option('--name <name>', 'who or what the key is for')
    .option('--states <list>', 'comma-separated USPS codes (default: all)', list(parseState))
    .option('--programs <list>', 'comma-separated programs (default: all)', list(parseProgram))
    .option('--groups <list>', `comma-separated endpoint groups (default: all): ${ENDPOINT_GROUPS.join(', ')}`, list(parseGroup))
    .option('--compare', 'include the compare add-on')
    .option('--admin', 'admin key: every endpoint, no rate limits')
    .option('--json', 'print JSON')
    .action(async (opts: { name?: string; states?: string[]; programs?: Program[]; groups?: EndpointGroup[]; compare?: boolean; admin?: boolean; json?: boolean }) => {
      const created = await withOperator((op) =>
        op.createKey({
          ...(opts.name ? { name: opts.name } : {}),
          states: opts.states ?? [],
          programs: opts.programs ?? [],
          groups: opts.groups ?? [],
          compare: !!opts.compare,
          admin: !!opts.admin,
        }),
        true,
      );
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(created, null, 2)}\n`);
        return;
      }
      process.stdout.write(`${created.key}\n`);
      process.stderr.write(`key id ${created.record.id} (${describeKey(created.record)}). Store the key now: it is not shown again.\n`);
    });
  keys
    .command('list')
    .description('List keys (ids and scopes, never the keys)')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const all = await withOperator((op) => op.listKeys());
      if (opts.json) process.stdout.write(`${JSON.stringify(all, null, 2)}\n`);
      else process.stdout.write(all.length ? `${all.map(describeKey).join('\n')}\n` : 'no keys\n');
    });
  keys
    .command('revoke')
    .description('Revoke a key by id')
    .argument('<id>', 'key id (k_...)')
    .action(async (id: string) => {
      const before = Date.now();
      printRevocation('key', id, await withOperator((op) => op.revokeKey(id), true), before);
    });
  keys
    .command('usage')
    .description('Monthly call counts for a key (5,000 included a month; overage is counted)')
    .argument('<id>', 'key id (k_...)')
    .option('--json', 'print JSON')
    .action(async (id: string, opts: { json?: boolean }) => {
      const r = await withOperator((op) => op.usage(id));
      if (!r) {
        process.stderr.write(`no key with id ${id}\n`);
        process.exitCode = 1;
        return;
      }
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
        return;
      }
      const rows = r.months.map((m) => `${m.month}  calls=${m.calls}  included=${m.included}  overage=${m.overage}`);
      process.stdout.write(rows.length ? `${rows.join('\n')}\n` : 'no calls recorded yet\n');
    });
  program
    .command('schema')
    .description('Print the JSON Schema the ingest validates a kind of record with (see docs/ingest.md)')
    .argument('[kind]', `a resourceType or file name: ${Object.keys(KIND_FILES).join(', ')} (rules, payers, ...); none lists the kinds`)
    .option('--example', 'print a minimal valid record instead')
    .action((raw: string | undefined, opts: { example?: boolean }) => {
      if (!raw) {
        process.stdout.write(`${(Object.entries(KIND_FILES) as [ResourceType, string][]).map(([k, f]) => `${k.padEnd(20)} ${f}`).join('\n')}\n`);
        return;
      }
      const kind = kindOf(raw);
      if (!kind) throw new OperatorError(`'${raw}' is not a record kind; one of ${Object.keys(KIND_FILES).join(', ')}`);
      process.stdout.write(`${JSON.stringify(opts.example ? MINIMAL_RECORDS[kind] : DOCUMENT_SCHEMAS[kind], null, 2)}\n`);
    });
  registerPasCommands(program);
  registerCorpusCommands(program);
  registerClientCommands(program, withOperator);
  return program;
}

export async function runCli(argv: string[]): Promise<void> {
  try {
    await buildCli().parseAsync(argv);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof OperatorError) {
      process.stderr.write(`prauth: ${err.message}\n`);
      process.exitCode = 1;
      return;
    }
    throw err;
  }
}

await runCli(process.argv);
