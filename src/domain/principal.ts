// Who is calling. An API key and a registered client (SMART backend client holding an access token, or a CDS
// Hooks EHR presenting a signed JWT) carry the same subscription and pass the same access gate; a demo session
// and the local operator are the other two kinds.

/** What a subscription covers. `null` means "every" (every state, program, non-admin endpoint group). */
export interface Subscription {
  states: ReadonlySet<string> | null;
  programs: ReadonlySet<string> | null;
  groups: ReadonlySet<string> | null;
  compare: boolean;
  admin: boolean;
}

/** A stored subscription (keys and clients keep the same lists; empty means all) as the sets the gate reads. */
export function subscriptionOf(r: { states: readonly string[]; programs: readonly string[]; groups: readonly string[]; compare: boolean; admin: boolean }): Subscription {
  return {
    states: r.states.length ? new Set(r.states) : null,
    programs: r.programs.length ? new Set(r.programs) : null,
    groups: r.groups.length ? new Set(r.groups) : null,
    compare: r.compare || r.admin,
    admin: r.admin,
  };
}

export interface KeyPrincipal extends Subscription {
  kind: 'key';
  keyId: string;
  name: string;
  /** The id rate limits and usage are counted under (the key id). */
  meterId: string;
}

export type ClientKind = 'backend' | 'cds-ehr';

export interface ClientPrincipal extends Subscription {
  kind: 'client';
  clientId: string;
  clientKind: ClientKind;
  name: string;
  /** The id rate limits and usage are counted under (the client id). */
  meterId: string;
  /** SMART scopes granted to the access token (backend clients); null for a CDS Hooks JWT. */
  scopes: readonly string[] | null;
  /** How the caller proved it: an access token from /v1/auth/token, or a CDS Hooks JWT. */
  via: 'access_token' | 'cds_jwt';
}

export interface DemoPrincipal {
  kind: 'demo';
  sessionId: string;
  expiresAt: string;
}

export interface OperatorPrincipal {
  kind: 'operator';
}

export type Principal = KeyPrincipal | ClientPrincipal | DemoPrincipal | OperatorPrincipal;
export type SubscribedPrincipal = KeyPrincipal | ClientPrincipal;

export const isSubscribed = (p: Principal | undefined): p is SubscribedPrincipal => p?.kind === 'key' || p?.kind === 'client';

/** "key" or "client", for messages that name what is out of scope. */
export const holderWord = (p: SubscribedPrincipal): string => (p.kind === 'key' ? 'key' : 'client');
