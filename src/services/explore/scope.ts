// What a caller may see, as predicates: the key's states and programs (every one for admin keys, operators and
// public callers). Services filter with it; a request that names an out-of-scope state or program is refused
// with 403 by ctx.authorize before it gets here.
export interface ScopeFilter {
  state(s: string): boolean;
  program(p: string): boolean;
}

export const EVERYTHING: ScopeFilter = { state: () => true, program: () => true };

export function scopeFilter(principal: { kind: string; admin?: boolean; states?: ReadonlySet<string> | null; programs?: ReadonlySet<string> | null } | undefined): ScopeFilter {
  if (!principal || principal.kind !== 'key' || principal.admin) return EVERYTHING;
  const { states, programs } = principal;
  return { state: (s) => !states || states.has(s), program: (p) => !programs || programs.has(p) };
}
