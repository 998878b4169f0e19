// The client registry (create, list, revoke; reads cached for a short time on the injected clock, so a revocation
// on another instance is seen within KEY_CACHE_SECONDS) and the composition of the client service: the token
// endpoint for SMART backend clients and CDS Hooks JWT verification for registered EHRs.
import { randomBytes } from 'node:crypto';
import type { JSONWebKeySet } from 'jose';
import { decodeJwt, type JWTPayload } from 'jose';
import type { EndpointGroup } from '../../domain/endpoint-groups.js';
import type { Program } from '../../domain/vocabulary.js';
import { createTtlCache } from '../../domain/ttl-cache.js';
import { COLLECTIONS } from '../../store/collections.js';
import { createJwtVerifier } from './jwt-verifier.js';
import { jwksProblems, jwksUrlProblem, toPrincipal, type ClientRecord, type ClientService, type ClientServiceDeps } from './records.js';
import { createTokenEndpoint } from './token-endpoint.js';

export function createClientService(deps: ClientServiceDeps): ClientService {
  const clients = deps.store.collection<ClientRecord>(COLLECTIONS.clients);
  const byId = createTtlCache<ClientRecord | null>({ seconds: deps.cacheSeconds, now: deps.now });
  const byIssuer = createTtlCache<ClientRecord | null>({ seconds: deps.cacheSeconds, now: deps.now });
  const cachedClient = (id: string): Promise<ClientRecord | null> => byId.get(id, () => clients.findOne({ id }));
  const activeEhr = (issuer: string): Promise<ClientRecord | null> => byIssuer.get(issuer, () => clients.findOne({ kind: 'cds-ehr', issuer, revokedAt: null }));
  const verifier = createJwtVerifier({ store: deps.store, now: deps.now });
  const endpoint = createTokenEndpoint({ ...deps, verifier, cachedClient });

  return {
    async create(o) {
      const problems: string[] = [];
      if (o.kind !== 'backend' && o.kind !== 'cds-ehr') problems.push("kind must be 'backend' or 'cds-ehr'");
      if (!!o.jwksUrl === (o.jwks !== undefined)) problems.push('give exactly one of jwks_url and jwks');
      if (o.jwksUrl) {
        const p = jwksUrlProblem(o.jwksUrl);
        if (p) problems.push(p);
      }
      if (o.jwks !== undefined) problems.push(...(await jwksProblems(o.jwks)));
      const issuer = o.issuer?.trim() || null;
      if (o.kind === 'cds-ehr') {
        if (!issuer) problems.push('a cds-ehr client needs its issuer (the iss of the JWTs it signs)');
        else if (issuer.length > 500) problems.push('issuer is longer than 500 characters');
        else if (await clients.findOne({ kind: 'cds-ehr', issuer, revokedAt: null })) problems.push(`issuer '${issuer.slice(0, 80)}' is already registered to an active client`);
      } else if (issuer) problems.push('--issuer applies to cds-ehr clients only (a backend client signs with iss = its client_id)');
      if (problems.length) return { ok: false, problems };
      const record: ClientRecord = {
        id: `c_${randomBytes(12).toString('hex')}`,
        name: o.name ?? 'unnamed',
        kind: o.kind,
        issuer: o.kind === 'cds-ehr' ? issuer : null,
        jwksUrl: o.jwksUrl ?? null,
        jwks: o.jwks !== undefined ? { keys: (o.jwks as JSONWebKeySet).keys.map((k) => ({ ...k })) } : null,
        states: [...new Set(o.states ?? [])].sort(),
        programs: [...new Set(o.programs ?? [])].sort() as Program[],
        groups: [...new Set(o.groups ?? [])].sort() as EndpointGroup[],
        compare: o.compare ?? false,
        admin: o.admin ?? false,
        createdAt: deps.now().toISOString(),
        revokedAt: null,
      };
      await clients.insert(record);
      if (record.issuer) byIssuer.delete(record.issuer); // a refusal cached before the registration
      byId.delete(record.id);
      return { ok: true, record };
    },

    async list() {
      return clients.find({}, { sort: { createdAt: 1 } });
    },

    get: (id) => clients.findOne({ id }),

    async revoke(id) {
      const r = await clients.findOne({ id });
      if (!r) return null;
      if (!r.revokedAt) {
        r.revokedAt = deps.now().toISOString();
        await clients.update({ id }, { revokedAt: r.revokedAt });
      }
      await endpoint.revokeTokens(id);
      byId.clear();
      byIssuer.clear();
      verifier.forget(id);
      return r;
    },

    issueToken: (form, tokenUrl) => endpoint.issueToken(form, tokenUrl),
    verifyAccessToken: (token) => endpoint.verifyAccessToken(token),

    async verifyCdsJwt(jwt, audience) {
      let claimed: JWTPayload;
      try {
        claimed = decodeJwt(jwt);
      } catch {
        return { ok: false, reason: 'The bearer token is not a JWT' };
      }
      if (typeof claimed.iss !== 'string' || !claimed.iss || claimed.iss.length > 500) return { ok: false, reason: 'The JWT has no iss' };
      const r = await activeEhr(claimed.iss);
      if (!r) return { ok: false, reason: 'The JWT iss is not a registered CDS client' };
      const checked = await verifier.verify(jwt, r, { issuer: r.issuer!, audience, required: ['iss', 'aud', 'exp', 'iat', 'jti'] }, 'The JWT');
      if (!checked.ok) return checked;
      return { ok: true, principal: toPrincipal(r, null, 'cds_jwt') };
    },
  };
}
