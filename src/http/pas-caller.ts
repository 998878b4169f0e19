// The caller of a PAS path as the PAS service needs it: who owns what the call stores, the single state / program
// of the subscription (the fallback when a bundle names none), and the scope check to run before storing.
import type { Program } from '../domain/vocabulary.js';
import type { PasCaller } from '../services/pas/pas-service.js';
import type { Principal, RequestContext } from './route.js';

/** `key:<id>` for an API key, `client:<id>` for a registered client, `operator` for the local operator. */
export function ownerOf(p: Principal | undefined): string {
  if (!p) return 'anonymous';
  if (p.kind === 'operator') return 'operator';
  const any = p as unknown as { keyId?: string; clientId?: string; sessionId?: string };
  if (any.clientId) return `client:${any.clientId}`;
  if (any.keyId) return `key:${any.keyId}`;
  return `session:${any.sessionId ?? 'unknown'}`;
}

export function pasCaller(ctx: Pick<RequestContext, 'principal' | 'authorize'>): PasCaller {
  const p = ctx.principal as (Principal & { states?: ReadonlySet<string> | null; programs?: ReadonlySet<string> | null; admin?: boolean }) | undefined;
  const only = (s: ReadonlySet<string> | null | undefined): string | undefined => (s && s.size === 1 ? [...s][0] : undefined);
  const onlyState = only(p?.states);
  const onlyProgram = only(p?.programs) as Program | undefined;
  return {
    owner: ownerOf(p),
    all: p?.kind === 'operator' || p?.admin === true,
    ...(onlyState ? { onlyState } : {}),
    ...(onlyProgram ? { onlyProgram } : {}),
    authorize: (scope) => ctx.authorize(scope),
  };
}
