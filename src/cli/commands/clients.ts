// prauth clients create|list|revoke: registered clients (SMART backend services, CDS Hooks EHRs). Writes go through
// the running server's admin interface when one holds the data directory (see ../operator.ts).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { ENDPOINT_GROUPS, type EndpointGroup } from '../../domain/endpoint-groups.js';
import type { ClientKind } from '../../domain/principal.js';
import type { Program } from '../../domain/vocabulary.js';
import type { ClientRecord } from '../../services/clients/records.js';
import { OperatorError, type Operator } from '../operator.js';
import { list, parseGroup, parseProgram, parseState, printRevocation } from '../parse-options.js';

/** Opens the store or the running server's admin interface; `write` makes it say where a write went. */
type WithOperator = <T>(fn: (op: Operator) => Promise<T>, write?: boolean) => Promise<T>;

interface CreateOpts {
  name?: string;
  kind: ClientKind;
  jwksUrl?: string;
  jwksFile?: string;
  issuer?: string;
  states?: string[];
  programs?: Program[];
  groups?: EndpointGroup[];
  compare?: boolean;
  admin?: boolean;
  json?: boolean;
}

export function describeClient(c: ClientRecord): string {
  const scope = [
    `states=${c.states.length ? c.states.join(',') : 'all'}`,
    `programs=${c.programs.length ? c.programs.join(',') : 'all'}`,
    `groups=${c.groups.length ? c.groups.join(',') : 'all'}`,
    c.compare ? 'compare' : '',
    c.admin ? 'admin' : '',
  ].filter(Boolean);
  const keys = c.jwksUrl ? `jwks=${c.jwksUrl}` : `jwks=stored(${c.jwks?.keys.length ?? 0} keys)`;
  return `${c.id}  ${c.revokedAt ? 'revoked' : 'active '}  ${c.kind.padEnd(7)}  ${c.name}  ${c.issuer ? `issuer=${c.issuer}  ` : ''}${keys}  ${scope.join(' ')}`;
}

function readJwksFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(resolve(file), 'utf8');
  } catch (err) {
    throw new OperatorError(`cannot read --jwks-file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new OperatorError(`--jwks-file ${file} is not JSON`);
  }
}

export function registerClientCommands(program: Command, withOperator: WithOperator): void {
  const clients = program.command('clients').description('Register, list and revoke SMART backend clients and CDS Hooks EHRs');
  clients
    .command('create')
    .description('Register a client: a SMART backend service (token endpoint) or an EHR calling CDS Hooks with signed JWTs')
    .option('--name <name>', 'who or what the client is')
    .addOption(new Option('--kind <kind>', 'backend (client_credentials tokens) or cds-ehr (signed CDS Hooks JWTs)').choices(['backend', 'cds-ehr']).makeOptionMandatory())
    .option('--jwks-url <url>', 'where its public keys are published (https; http on loopback only)')
    .option('--jwks-file <file>', 'a JWKS file with its public keys (stored with the client)')
    .option('--issuer <iss>', 'cds-ehr: the iss of the JWTs the EHR signs')
    .option('--states <list>', 'comma-separated USPS codes (default: all)', list(parseState))
    .option('--programs <list>', 'comma-separated programs (default: all)', list(parseProgram))
    .option('--groups <list>', `comma-separated endpoint groups (default: all): ${ENDPOINT_GROUPS.join(', ')}`, list(parseGroup))
    .option('--compare', 'include the compare add-on')
    .option('--admin', 'admin client: every endpoint, no rate limits')
    .option('--json', 'print JSON ({client_id, client})')
    .action(async (opts: CreateOpts) => {
      if (!!opts.jwksUrl === !!opts.jwksFile) throw new OperatorError('give exactly one of --jwks-url and --jwks-file');
      const jwks = opts.jwksFile ? readJwksFile(opts.jwksFile) : undefined;
      const out = await withOperator((op) =>
        op.createClient({
          kind: opts.kind,
          ...(opts.name ? { name: opts.name } : {}),
          ...(opts.jwksUrl ? { jwksUrl: opts.jwksUrl } : {}),
          ...(jwks !== undefined ? { jwks } : {}),
          ...(opts.issuer ? { issuer: opts.issuer } : {}),
          states: opts.states ?? [],
          programs: opts.programs ?? [],
          groups: opts.groups ?? [],
          compare: !!opts.compare,
          admin: !!opts.admin,
        }),
        true,
      );
      if (!out.ok) {
        for (const p of out.problems) process.stderr.write(`prauth: ${p}\n`);
        process.exitCode = 2;
        return;
      }
      if (opts.json) {
        process.stdout.write(`${JSON.stringify({ client_id: out.record.id, client: out.record }, null, 2)}\n`);
        return;
      }
      process.stdout.write(`${out.record.id}\n`);
      process.stderr.write(`registered ${describeClient(out.record)}\n`);
    });
  clients
    .command('list')
    .description('List registered clients')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const all = await withOperator((op) => op.listClients());
      if (opts.json) process.stdout.write(`${JSON.stringify(all, null, 2)}\n`);
      else process.stdout.write(all.length ? `${all.map(describeClient).join('\n')}\n` : 'no clients\n');
    });
  clients
    .command('revoke')
    .description('Revoke a client: its tokens stop working and its JWTs are refused')
    .argument('<id>', 'client id (c_...)')
    .action(async (id: string) => {
      const before = Date.now();
      printRevocation('client', id, await withOperator((op) => op.revokeClient(id), true), before);
    });
}
