// The PAS $submit load for npm run bench: the public PAS 2.2.1 example request re-coded for Texas Medicaid managed
// care (CPT 70553 pends under the sample rule, 70551 too), each request a new submission (its own Bundle and Claim
// identifiers, so every call decides, stores the request and its first ClaimResponse version), and a resubmission
// of one Bundle (the idempotent path: one indexed read).
import { measure, type Row } from './options.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export function submitBody(id: string): Json {
  const b = JSON.parse(readFileSync(fileURLToPath(new URL('../test/examples/pas-2.2.1-claim-submit-request-bundle.json', import.meta.url)), 'utf8')) as Json;
  b.identifier.value = `bench-${id}`;
  const claim = b.entry[0].resource;
  claim.identifier[0].value = `bench-claim-${id}`;
  claim.identifier[0].extension[0].valueCodeableConcept.coding[0].code = 'TX';
  const coverage = b.entry.find((e: Json) => e.resource.resourceType === 'Coverage').resource;
  coverage.class = [{ type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/coverage-class', code: 'plan' }] }, value: 'medicaid_mco' }];
  for (const [i, code] of ['70553', '70551'].entries()) {
    claim.item[i].productOrService = { coding: [{ system: 'http://www.ama-assn.org/go/cpt', code }] };
    claim.item[i].extension = claim.item[i].extension.filter((e: Json) => !String(e.url).endsWith('extension-requestedService'));
  }
  return b;
}

export async function benchSubmit(url: string, key: string, seconds: number, connections = 20): Promise<Row[]> {
  const headers = { 'x-api-key': key, 'content-type': 'application/fhir+json' };
  const template = JSON.stringify(submitBody('TEMPLATE'));
  let n = 0;
  const fresh = await measure(`service POST /v1/Claim/$submit, new submissions (${connections} connections)`, {
    url: `${url}/v1/Claim/$submit`,
    method: 'POST',
    connections,
    duration: seconds,
    headers,
    requests: [{ setupRequest: (req) => ({ ...req, body: template.replaceAll('TEMPLATE', `${process.pid}-${n++}`) }) }],
  });
  const same = JSON.stringify(submitBody('same'));
  const again = await measure(`service POST /v1/Claim/$submit, same Bundle again (${connections} connections)`, { url: `${url}/v1/Claim/$submit`, method: 'POST', connections, duration: seconds, headers, body: same });
  return [fresh, again];
}
