// The one registry of the FHIR and CDS Hooks surfaces. Each FHIR interaction / operation and each CDS service is
// declared once (src/api/fhir/ per implementation guide, src/api/cds-services.ts); the routes
// (http/routes/fhir-routes.ts, cds-routes.ts), the CapabilityStatement, the CDS discovery document and /openapi.json
// are all generated from here.
import { CAPABILITY_STATIC } from '../../capability/capability-statement.js';
import { CDS_SERVICE_TEXT, CRD_CONFIGURATION_OPTIONS } from '../../capability/cds-services.js';
import { CRD_VERSION } from '../../fhir-profiles/canonicals.js';
import { CDS_SERVICES } from './cds-services.js';
import type { CdsServiceDescription } from '../fhir/crd/types.js';
import { isoDate } from '../domain/time.js';
import type { FhirDecl, FhirPathDecl, FhirResourceDecl, OpEnv } from './decl-types.js';
import { DTR_DECLS } from './fhir/dtr.js';
import { FORMULARY_DECLS } from './fhir/formulary.js';
import { PAS_DECLS } from './fhir/pas.js';
import type { CapabilityStatement, CapabilityStatementResource } from '../fhir/r4.js';
import { capabilitySecurity, servedResourceTypesOf, smartConfigurationOf } from './smart.js';


const metadata: FhirPathDecl = {
  kind: 'path',
  id: 'fhir-metadata',
  path: '/v1/metadata',
  pathParams: [],
  auth: 'none',
  summary: 'FHIR R4 CapabilityStatement',
  description: 'What the FHIR surfaces serve, generated from the same registry as the routes.',
  run: (_input, env) => ({ body: buildCapabilityStatement(env) }),
};

export const FHIR_DECLS: readonly FhirDecl[] = [metadata, ...FORMULARY_DECLS, ...DTR_DECLS, ...PAS_DECLS];

// ---- generated documents ----

/** FHIR resource types served behind credentials (a token's scopes are limited to these or `*`). */
export const servedResourceTypes = (): Set<string> => servedResourceTypesOf(FHIR_DECLS);
/** GET /v1/.well-known/smart-configuration */
export const buildSmartConfiguration = (base: string): Record<string, unknown> => smartConfigurationOf(FHIR_DECLS, base);

export function buildCdsDiscovery(): { services: CdsServiceDescription[] } {
  return {
    services: CDS_SERVICES.map((s) => ({
      hook: s.hook,
      id: s.id,
      title: CDS_SERVICE_TEXT[s.hook]!.title,
      description: CDS_SERVICE_TEXT[s.hook]!.description,
      prefetch: s.prefetch,
      extension: { 'davinci-crd.version': [CRD_VERSION], 'davinci-crd.configuration-options': CRD_CONFIGURATION_OPTIONS },
    })),
  };
}

export function buildCapabilityStatement(env: Pick<OpEnv, 'model' | 'base' | 'now' | 'softwareVersion'>): CapabilityStatement {
  const { restDocumentation, securityDescription, ...statics } = CAPABILITY_STATIC;
  const resources = new Map<string, CapabilityStatementResource>();
  const entry = (type: string): CapabilityStatementResource => {
    const found = resources.get(type);
    if (found) return found;
    const created: CapabilityStatementResource = { type: type as CapabilityStatementResource['type'] };
    resources.set(type, created);
    return created;
  };
  for (const d of FHIR_DECLS) {
    for (const c of d.capability ?? []) Object.assign(entry(c.type), { ...c, supportedProfile: [...(entry(c.type).supportedProfile ?? []), ...(c.supportedProfile ?? [])] });
    if (d.kind === 'operation') {
      const r = entry(d.resourceType);
      r.operation = [...(r.operation ?? []), { name: d.name, definition: d.definition, documentation: d.summary }];
    }
    if (d.kind === 'resource') Object.assign(entry(d.resourceType), resourceCapability(d, entry(d.resourceType)));
  }
  const instantiates = [...new Set(FHIR_DECLS.flatMap((d) => d.instantiates ?? []))];
  return {
    ...statics,
    ...(instantiates.length ? { instantiates } : {}),
    software: { name: statics.software!.name, version: env.softwareVersion },
    date: env.model.lastVerified ?? isoDate(env.now),
    implementation: { description: 'Prior-authorization rules service', url: `${env.base}/v1` },
    rest: [
      {
        mode: 'server',
        documentation: restDocumentation,
        security: capabilitySecurity(`${env.base}`, securityDescription),
        resource: [...resources.values()].sort((a, b) => a.type.localeCompare(b.type)),
      },
    ],
  };
}

/** The CapabilityStatement entry of a read/search declaration: exactly the interactions and parameters it serves. */
function resourceCapability(d: FhirResourceDecl, prior: CapabilityStatementResource): CapabilityStatementResource {
  const interaction: NonNullable<CapabilityStatementResource['interaction']> = [
    ...(prior.interaction ?? []),
    ...(d.read ? [{ code: 'read' as const }] : []),
    ...(d.search ? [{ code: 'search-type' as const }] : []),
  ];
  return {
    ...prior,
    supportedProfile: [...new Set([...(prior.supportedProfile ?? []), ...d.supportedProfile])],
    documentation: d.description,
    interaction,
    ...(d.search
      ? {
          searchParam: [...(prior.searchParam ?? []), ...d.searchParams.map((p) => ({ name: p.name, type: p.type, ...(p.definition ? { definition: p.definition } : {}), ...(p.documentation ? { documentation: p.documentation } : {}) }))],
          ...(d.searchInclude?.length ? { searchInclude: [...(prior.searchInclude ?? []), ...d.searchInclude] } : {}),
          ...(d.searchRevInclude?.length ? { searchRevInclude: [...(prior.searchRevInclude ?? []), ...d.searchRevInclude] } : {}),
        }
      : {}),
  };
}
