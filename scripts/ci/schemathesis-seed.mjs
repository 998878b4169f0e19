// Seeds a running server for the API fuzzer with the resources its keyed reads need, made from the OpenAPI
// document's own examples: two PAS requests (pended, so the operator can decide one and extend the other), a
// Subscription, a registered client. Prints shell assignments for scripts/ci/schemathesis.toml's per-operation
// parameters (ST_PREAUTHREF_A, ST_PREAUTHREF_B, ST_SUBSCRIPTION_ID, ST_CLIENT_ID).
//   node scripts/ci/schemathesis-seed.mjs <base url> <key> <admin key>
const [base, key, adminKey] = process.argv.slice(2);
if (!base || !key || !adminKey) {
  console.error('usage: schemathesis-seed.mjs <base url> <key> <admin key>');
  process.exit(2);
}
const doc = await (await fetch(`${base}/openapi.json`)).json();
const exampleBody = (path, method) => {
  const content = doc.paths[path]?.[method]?.requestBody?.content ?? {};
  const media = Object.values(content).find((m) => m.example !== undefined);
  if (!media) throw new Error(`no example body for ${method.toUpperCase()} ${path}`);
  return media.example;
};
async function post(path, body, apiKey, contentType) {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'x-api-key': apiKey, 'content-type': contentType }, body: JSON.stringify(body) });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

const claim = exampleBody('/v1/Claim/{op}', 'post');
const refs = [];
for (const n of [1, 2]) {
  // A distinct submission each time (a new Bundle identifier), so the second is not answered as a duplicate.
  const bundle = structuredClone(claim);
  bundle.identifier = { ...(bundle.identifier ?? {}), value: `schemathesis-seed-${n}` };
  const out = await post('/v1/Claim/$submit', bundle, key, 'application/fhir+json');
  const cr = out.entry?.[0]?.resource;
  if (cr?.resourceType !== 'ClaimResponse' || !cr.id) throw new Error('Claim/$submit answered no ClaimResponse first');
  refs.push(cr.id);
}
if (refs[0] === refs[1]) throw new Error('the two seeded PAS requests got the same preAuthRef');
const sub = await post('/v1/Subscription', exampleBody('/v1/Subscription', 'post'), key, 'application/fhir+json');
const client = await post('/v1/admin/clients', exampleBody('/v1/admin/clients', 'post'), adminKey, 'application/json');
console.log(`ST_PREAUTHREF_A=${refs[0]} ST_PREAUTHREF_B=${refs[1]} ST_SUBSCRIPTION_ID=${sub.id} ST_CLIENT_ID=${client.client_id}`);
