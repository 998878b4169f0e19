// Option parsers shared by the CLI commands (commander argParsers): comma lists of states, programs, groups.
import { InvalidArgumentError } from 'commander';
import { ENDPOINT_GROUPS, isEndpointGroup, type EndpointGroup } from '../domain/endpoint-groups.js';
import { isJurisdiction, normalizeProgram, type Program } from '../domain/vocabulary.js';

/**
 * A comma-separated option. An option given with nothing in it (`--states ''`, `--states ','`) is refused: leaving
 * the option out means "all", and a script passing an unset variable must not issue an unrestricted credential.
 */
export const list = (parse: (v: string) => string) => (value: string): string[] => {
  const items = value.split(',').map((s) => s.trim()).filter(Boolean);
  if (!items.length) throw new InvalidArgumentError(`'${value}' names nothing; leave the option out to mean all`);
  return items.map(parse);
};

export const parseState = (v: string): string => {
  const s = v.toUpperCase();
  if (!isJurisdiction(s)) throw new InvalidArgumentError(`'${v}' is not a USPS state code or DC`);
  return s;
};
export const parseProgram = (v: string): Program => {
  const p = normalizeProgram(v);
  if (!p) throw new InvalidArgumentError(`'${v}' is not a program`);
  return p;
};
export const parseGroup = (v: string): EndpointGroup => {
  if (!isEndpointGroup(v)) throw new InvalidArgumentError(`'${v}' is not an endpoint group (${ENDPOINT_GROUPS.join(', ')})`);
  return v;
};

/**
 * Revocation is idempotent: a key or client revoked earlier keeps its first revocation time, and the CLI says so.
 * `before` is when the command started; null means no such id (exit 1).
 */
export function printRevocation(what: 'key' | 'client', id: string, r: { id: string; revokedAt: string | null } | null, before: number): void {
  if (!r) {
    process.stderr.write(`no ${what} with id ${id}\n`);
    process.exitCode = 1;
    return;
  }
  if (r.revokedAt && Date.parse(r.revokedAt) < before - 1000) process.stdout.write(`${r.id} was already revoked at ${r.revokedAt}; nothing changed\n`);
  else process.stdout.write(`revoked ${r.id}\n`);
}
