// The OpenAPI 3.1 document, generated from the route table and the response schemas it names, so the
// description cannot drift from what is served.
import { INTERFACE_VERSION } from '../services/manifest.js';
import { ErrorBody, RateLimitError } from './openapi-schemas.js';
import { CONTENT_TYPES } from './pipeline.js';
import type { RouteDef } from '../api/route.js';

const SECURITY: Record<RouteDef['auth'], Record<string, string[]>[] | undefined> = {
  none: undefined,
  key: [{ ApiKey: [] }],
  key_or_demo: [{ ApiKey: [] }, { DemoSession: [] }],
  admin: [{ ApiKey: [] }, { OperatorToken: [] }],
};

const mediaType = (ct: string): string => ct.split(';')[0]!;

/** FHIR routes also take a SMART access token, CDS Hooks services a JWT signed by a registered EHR. */
function securityOf(r: RouteDef): Record<string, string[]>[] | undefined {
  if (r.auth === 'key' && r.surface === 'fhir') return [{ ApiKey: [] }, { SmartBackendServices: [] }];
  if (r.auth === 'key' && r.surface === 'cds') return [{ ApiKey: [] }, { CdsHooksJwt: [] }];
  return SECURITY[r.auth];
}

export function buildOpenApi(routes: readonly RouteDef[], serverUrl = '/'): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const path = r.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const op = r.openapi;
    const responses: Record<string, unknown> = {};
    for (const [status, resp] of Object.entries(op.responses)) {
      const ct = resp.contentType ?? mediaType(CONTENT_TYPES[r.surface]);
      responses[status] = {
        description: resp.description,
        ...(resp.headers ? { headers: resp.headers } : {}),
        ...(resp.schema ? { content: { [ct]: { schema: resp.schema } } } : {}),
        ...(resp.links ? { links: resp.links } : {}),
      };
    }
    // Any credentialed route can answer 429 once the caller's address has failed authentication too often.
    if (r.auth !== 'none' && !responses['429']) {
      const schema = r.surface === 'fhir' ? { type: 'object', required: ['resourceType', 'issue'], properties: { resourceType: { const: 'OperationOutcome' } } } : RateLimitError;
      responses['429'] = { description: 'Too many failed authentications from this address (or the rate limit)', content: { [mediaType(CONTENT_TYPES[r.surface])]: { schema } } };
    }
    // What the one pipeline answers for any route of its kind, declared once here rather than per route.
    const errorSchema = r.surface === 'fhir' ? { type: 'object', required: ['resourceType', 'issue'], properties: { resourceType: { const: 'OperationOutcome' } } } : ErrorBody;
    const generic = (status: string, description: string) => {
      if (!responses[status]) responses[status] = { description, content: { [mediaType(CONTENT_TYPES[r.surface])]: { schema: errorSchema } } };
    };
    if (r.auth === 'key' || r.auth === 'key_or_demo') {
      generic('403', 'Outside the subscription: state, program, endpoint group or add-on (`out_of_scope` names it); before anything is read or the rest of the request is checked');
    }
    if (r.methodAllowed) generic('405', 'This method is not allowed at this address (e.g. POST to an instance id; operations start with $)');
    if (r.method === 'POST') {
      generic('400', 'Malformed JSON or an invalid body');
      generic('413', 'Body larger than BODY_LIMIT');
      generic('415', 'Body of another media type');
    }
    if (r.deprecated) {
      const ok = responses['200'] as Record<string, unknown> | undefined;
      if (ok) {
        ok.headers = {
          Deprecation: { description: 'RFC 9745 deprecation date', schema: { type: 'string' } },
          Sunset: { description: 'RFC 8594 sunset date', schema: { type: 'string' } },
        };
      }
    }
    paths[path] ??= {};
    paths[path][r.method.toLowerCase()] = {
      operationId: r.id,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: op.tags,
      ...(r.deprecated ? { deprecated: true } : {}),
      ...(op.parameters ? { parameters: op.parameters } : {}),
      ...(op.requestBody ? { requestBody: op.requestBody } : {}),
      ...(securityOf(r) ? { security: securityOf(r) } : { security: [] }),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Prior-authorization rules service',
      version: INTERFACE_VERSION,
      description:
        'Human-verified, source-linked prior-authorization rules for 51 jurisdictions and 7 programs, with FHIR R4 and CDS Hooks surfaces. ' +
        'Within /v1 only additive changes are made; clients must ignore unknown fields. By default only verified rules are served (each read from an official source and confirmed by a second reading, with its evidence); elsewhere the answer is a scope gap. Rules are not legal or clinical advice; the bundled illustrative sample rules are served only when the operator turns them on (SERVE_SAMPLE_RULES). ' +
        'Outside your scope: a request naming a state or program outside the subscription (in parameters, the path, hints, a canonical, a rule or resource id, an ask question) is a 403 naming it in `out_of_scope`, before anything is read and before the rest of the request is checked; each named value counts on its own, and an invalid one gets its 400 only when the rest is in scope.',
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'A UUID v4 issued by `prauth keys create`' },
        DemoSession: { type: 'apiKey', in: 'header', name: 'x-demo-session', description: 'A demo session id (UUID), action plan only' },
        OperatorToken: { type: 'http', scheme: 'bearer', description: 'Local operator token from the data directory lock (CLI only)' },
        SmartBackendServices: {
          type: 'oauth2',
          description: 'SMART Backend Services: client_credentials with a private_key_jwt client assertion (RS384 or ES384); see /v1/.well-known/smart-configuration',
          flows: { clientCredentials: { tokenUrl: '/v1/auth/token', scopes: { 'system/*.rs': 'Read and search every FHIR resource served', 'system/Claim.c': 'PAS Claim/$submit' } } },
        },
        CdsHooksJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'CDS Hooks: a JWT signed (ES384 or RS384) by a registered EHR, aud = the service URL' },
      },
    },
  };
}
