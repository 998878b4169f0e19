// The caller of a PAS path as the PAS service needs it: who owns what the call stores, the single state / program
// of the subscription (the fallback when a bundle names none), and the scope check to run before storing.
import type { Program } from '../domain/vocabulary.js';
import type { PasCaller } from '../services/pas/contract.js';
import type { RequestContext } from '../api/route.js';
import type { Principal } from '../domain/principal.js';

/** `key:<id>` for an API key, `client:<id>` for a registered client (SMART backend or CDS EHR), `operator` for the local operator. */
export function ownerOf(p: Principal | undefined): string {
  switch (p?.kind) {
    case 'key':
      return `key:${p.keyId}`;
    case 'client':
      return `client:${p.clientId}`;
    case 'operator':
      return 'operator';
    case 'demo':
      return `demo:${p.sessionId}`;
    default:
      return 'anonymous';
  }
}

export function pasCaller(ctx: Pick<RequestContext, 'principal' | 'authorize'>): PasCaller {
  const p = ctx.principal;
  const subscribed = p?.kind === 'key' || p?.kind === 'client' ? p : undefined;
  const only = (s: ReadonlySet<string> | null | undefined): string | undefined => (s && s.size === 1 ? [...s][0] : undefined);
  const onlyState = only(subscribed?.states);
  const onlyProgram = only(subscribed?.programs) as Program | undefined;
  return {
    owner: ownerOf(p),
    all: p?.kind === 'operator' || subscribed?.admin === true,
    ...(onlyState ? { onlyState } : {}),
    ...(onlyProgram ? { onlyProgram } : {}),
    authorize: (scope) => ctx.authorize(scope),
  };
}
