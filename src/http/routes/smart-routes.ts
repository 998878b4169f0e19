// SMART Backend Services: the discovery document and the token endpoint (client_credentials + private_key_jwt).
import { buildSmartConfiguration } from '../../api/registry.js';
import { SMART_CONFIGURATION_PATH, TOKEN_PATH } from '../../api/smart.js';
import { tooManyRequests } from '../../services/access-gate.js';
import { CLIENT_ASSERTION_TYPE } from '../../services/clients/records.js';
import { publicBaseOf } from '../base-url.js';
import { ErrorBody, RateLimitError } from '../openapi-schemas.js';
import type { RouteDef } from '../../api/route.js';

const SmartConfiguration = {
  type: 'object',
  required: ['token_endpoint', 'grant_types_supported', 'token_endpoint_auth_methods_supported', 'token_endpoint_auth_signing_alg_values_supported', 'scopes_supported', 'capabilities'],
  properties: {
    token_endpoint: { type: 'string', format: 'uri' },
    grant_types_supported: { type: 'array', items: { const: 'client_credentials' } },
    token_endpoint_auth_methods_supported: { type: 'array', items: { const: 'private_key_jwt' } },
    token_endpoint_auth_signing_alg_values_supported: { type: 'array', items: { enum: ['RS384', 'ES384'] } },
    scopes_supported: { type: 'array', items: { type: 'string', pattern: '^system/' } },
    capabilities: { type: 'array', items: { type: 'string' } },
  },
};

const TokenResponse = {
  type: 'object',
  required: ['access_token', 'token_type', 'expires_in', 'scope'],
  properties: {
    access_token: { type: 'string', minLength: 20 },
    token_type: { const: 'bearer' },
    expires_in: { type: 'integer', minimum: 1 },
    scope: { type: 'string', minLength: 1 },
  },
};

const OAuthError = {
  type: 'object',
  required: ['error'],
  description: 'RFC 6749 section 5.2',
  properties: {
    error: { enum: ['invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope'] },
    error_description: { type: 'string' },
  },
};

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
/** The form body (handed over as text) as name -> value, a repeated name -> every value (refused by the service). */
function formOf(body: unknown): Record<string, string | string[]> {
  const form: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  if (typeof body !== 'string') return form;
  for (const [k, v] of new URLSearchParams(body)) {
    const seen = form[k];
    form[k] = seen === undefined ? v : [...(Array.isArray(seen) ? seen : [seen]), v];
  }
  return form;
}

export const smartRoutes: RouteDef[] = [
  {
    id: 'smart-configuration',
    method: 'GET',
    path: SMART_CONFIGURATION_PATH,
    auth: 'none',
    surface: 'json',
    cache: 'public, max-age=300, s-maxage=3600',
    handle: (ctx, deps) => ({ status: 200, body: buildSmartConfiguration(publicBaseOf(ctx.headers, deps.config)) }),
    openapi: {
      summary: 'SMART on FHIR discovery (backend services): token endpoint, signing algorithms, scopes',
      tags: ['access'],
      responses: { '200': { description: 'SMART configuration', schema: SmartConfiguration } },
    },
  },
  {
    id: 'smart-token',
    method: 'POST',
    path: TOKEN_PATH,
    auth: 'none',
    bodyType: 'form',
    surface: 'json',
    cache: 'no-store',
    async handle(ctx, deps) {
      // A valid assertion always gets its token; past the address's failure budget, a failed one is a 429.
      const out = await deps.clients.issueToken(formOf(ctx.body), `${publicBaseOf(ctx.headers, deps.config)}${TOKEN_PATH}`);
      if (out.ok) return { status: 200, body: out.body, headers: NO_STORE };
      const over = out.authFailure ? await deps.authThrottle.failure(ctx.clientAddress, ctx.now) : null;
      if (over) throw tooManyRequests('auth_failure', over, 'failed authentications from this address');
      return { status: out.status, body: { error: out.error, error_description: out.description }, headers: NO_STORE };
    },
    openapi: {
      summary: 'SMART Backend Services token endpoint (client_credentials with a private_key_jwt assertion)',
      description:
        'The assertion is a JWT signed RS384 or ES384 by a key of the client\'s registered JWKS (`kid` in the header; `jku`, when sent, must be the registered JWKS URL), with iss = sub = client_id, aud = this URL, exp at most five minutes ahead and a jti not used before. The token is opaque, lives 300 s and carries the granted system scopes; the client\'s subscription (states, programs, groups) applies to every call made with it.',
      tags: ['access'],
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': {
            schema: {
              type: 'object',
              required: ['grant_type', 'scope', 'client_assertion_type', 'client_assertion'],
              properties: {
                grant_type: { const: 'client_credentials' },
                scope: { type: 'string', examples: ['system/*.rs system/Claim.c'] },
                client_assertion_type: { const: CLIENT_ASSERTION_TYPE },
                client_assertion: { type: 'string' },
              },
            },
          },
        },
      },
      responses: {
        '200': { description: 'An access token', schema: TokenResponse },
        '400': { description: 'invalid_request, unsupported_grant_type, unauthorized_client or invalid_scope', schema: OAuthError },
        '401': { description: 'invalid_client: the assertion was refused (signature, kid, alg, iss/sub, aud, exp, replayed jti, unknown or revoked client)', schema: OAuthError },
        '415': { description: 'Body is not application/x-www-form-urlencoded', schema: ErrorBody },
        '429': { description: 'Too many failed authentications from this address', schema: RateLimitError },
      },
    },
  },
];
