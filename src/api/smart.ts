// What SMART on FHIR says about the declared FHIR surfaces: the scope each declaration needs, the scopes a token
// may carry, the CapabilityStatement's rest.security and the .well-known/smart-configuration document. Pure: built
// from the declarations (src/api/registry.ts passes them in), so the routes and what is advertised cannot drift.
import type { SmartNeed } from '../domain/smart-scopes.js';
import type { FhirDecl } from './decl-types.js';
import type { CapabilityStatement } from '../fhir/r4.js';

type CapabilityStatementRestSecurity = NonNullable<NonNullable<CapabilityStatement['rest']>[number]['security']>;

/** Operations that only read or compute (the rest need `c` on their resource type, e.g. system/Claim.c for $submit). */
const READ_ONLY_OPERATIONS = new Set(['questionnaire-package', 'next-question', 'inquire']);

/** The resource types a declaration serves or takes. */
function resourcesOf(d: FhirDecl): string[] {
  if (d.kind === 'operation' || d.kind === 'resource') return [d.resourceType];
  return [...new Set((d.capability ?? []).map((c) => c.type as string))];
}

/** The SMART scope a declaration needs: GETs at their own path need read or search on every type they return, a
 * FHIR read `r` and a search `s` on the type (`interaction`), operations `c` unless they only read. Undefined for
 * public declarations. */
export function smartNeedOf(d: FhirDecl, interaction?: 'r' | 's'): SmartNeed | undefined {
  if (d.auth === 'none') return undefined;
  const resources = resourcesOf(d);
  if (!resources.length) return undefined;
  if (d.kind === 'resource') return { resources, interactions: interaction ? [interaction] : ['r', 's'] };
  if (d.kind === 'path') return { resources, interactions: d.method === 'POST' ? ['c'] : ['r', 's'] };
  return { resources, interactions: READ_ONLY_OPERATIONS.has(d.name) ? ['r', 's'] : ['c'] };
}

export function servedResourceTypesOf(decls: readonly FhirDecl[]): Set<string> {
  return new Set(decls.filter((d) => d.auth !== 'none').flatMap(resourcesOf));
}

/** scopes_supported: the narrowest scope per served type and interaction, and the wildcard forms. */
export function scopesSupportedOf(decls: readonly FhirDecl[]): string[] {
  const out = new Set<string>();
  for (const d of decls) {
    const need = smartNeedOf(d);
    if (!need) continue;
    const letters = need.interactions.includes('c') ? 'c' : 'rs';
    for (const r of need.resources) out.add(`system/${r}.${letters}`);
  }
  return [...[...out].sort(), 'system/*.rs', 'system/*.cruds', 'system/*.read'];
}

export const OAUTH_URIS_EXTENSION = 'http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris';
export const TOKEN_PATH = '/v1/auth/token';
export const SMART_CONFIGURATION_PATH = '/v1/.well-known/smart-configuration';

/** CapabilityStatement.rest.security: SMART-on-FHIR (backend services) with the token endpoint, and the API key. */
export function capabilitySecurity(base: string, description: string): CapabilityStatementRestSecurity {
  return {
    extension: [{ url: OAUTH_URIS_EXTENSION, extension: [{ url: 'token', valueUri: `${base}${TOKEN_PATH}` }] }],
    cors: true,
    service: [
      {
        coding: [{ system: 'http://terminology.hl7.org/CodeSystem/restful-security-service', code: 'SMART-on-FHIR', display: 'SMART-on-FHIR' }],
        text: 'SMART Backend Services: client_credentials with a private_key_jwt assertion (RS384 or ES384) at the token endpoint; send the access token as Authorization: Bearer',
      },
      { text: 'API key (x-api-key header)' },
    ],
    description,
  };
}

/** GET /v1/.well-known/smart-configuration (SMART App Launch 2.x, backend services only). */
export function smartConfigurationOf(decls: readonly FhirDecl[], base: string): Record<string, unknown> {
  return {
    token_endpoint: `${base}${TOKEN_PATH}`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: ['RS384', 'ES384'],
    scopes_supported: scopesSupportedOf(decls),
    capabilities: ['client-confidential-asymmetric', 'permission-v2', 'permission-v1'],
  };
}
