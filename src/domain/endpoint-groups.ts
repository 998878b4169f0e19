// Endpoint groups: the unit of subscription scope and of rate limiting (spec 5 and 8).
export const ENDPOINT_GROUPS = [
  'lookup', // /v1/pauth-lookup and its alias /v1/pa-lookup
  'compare',
  'compare_payers',
  'action_plan',
  'fhir', // formulary, DTR, PAS
  'cds',
  'ask', // POST /v1/ask
  'explore', // topics, similar rules
  'admin',
] as const;
export type EndpointGroup = (typeof ENDPOINT_GROUPS)[number];
export const isEndpointGroup = (v: string): v is EndpointGroup => (ENDPOINT_GROUPS as readonly string[]).includes(v);
