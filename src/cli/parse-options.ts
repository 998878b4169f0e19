// Option parsers shared by the CLI commands (commander argParsers): comma lists of states, programs, groups.
import { InvalidArgumentError } from 'commander';
import { ENDPOINT_GROUPS, isEndpointGroup, type EndpointGroup } from '../domain/endpoint-groups.js';
import { isJurisdiction, normalizeProgram, type Program } from '../domain/vocabulary.js';

export const list = (parse: (v: string) => string) => (value: string): string[] =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(parse);

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
