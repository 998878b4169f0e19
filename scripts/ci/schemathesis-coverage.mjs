// Per-operation report of a schemathesis run: reads the OpenAPI document the server served and the HAR files the
// runs wrote, maps every recorded request to its operation (method + path template) and prints, per operation, how
// many requests were sent and how many answers fell in 2xx, 4xx and 5xx. It fails (exit 1) when an operation was
// never exercised, when any answer was a 5xx, or when a keyed operation (one whose OpenAPI entry names a security
// requirement) never reached a 2xx.
//   node scripts/ci/schemathesis-coverage.mjs <openapi.json> <har.json>...
import { readFileSync } from 'node:fs';

const [specPath, ...harPaths] = process.argv.slice(2);
if (!specPath || harPaths.length === 0) {
  console.error('usage: schemathesis-coverage.mjs <openapi.json> <har.json>...');
  process.exit(2);
}
const spec = JSON.parse(readFileSync(specPath, 'utf8'));
const ops = [];
for (const [template, item] of Object.entries(spec.paths ?? {})) {
  for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
    const op = item[method];
    if (!op) continue;
    const security = op.security ?? spec.security ?? [];
    const keyed = security.some((req) => Object.keys(req).length > 0);
    const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`);
    ops.push({ id: `${method.toUpperCase()} ${template}`, method: method.toUpperCase(), template, pattern, keyed, n: 0, s2: 0, s4: 0, s5: 0 });
  }
}
// The most specific template wins (fewest parameters, then longest literal text): /v1/Claim/$submit before /v1/Claim/{op}.
const specificity = (t) => [-(t.match(/\{/g) ?? []).length, t.replace(/\{[^}]+\}/g, '').length];
ops.sort((a, b) => {
  const [pa, la] = specificity(a.template);
  const [pb, lb] = specificity(b.template);
  return pb - pa || lb - la;
});

let unmatched = 0;
let otherMethod = 0;
for (const harPath of harPaths) {
  const har = JSON.parse(readFileSync(harPath, 'utf8'));
  for (const entry of har.log?.entries ?? []) {
    const url = new URL(entry.request.url);
    const op = ops.find((o) => o.method === entry.request.method && o.pattern.test(url.pathname));
    if (!op) {
      // A method the document does not declare at a known path: schemathesis's undeclared-method probe (want 405).
      if (ops.some((o) => o.pattern.test(url.pathname))) otherMethod++;
      else unmatched++;
      continue;
    }
    op.n++;
    const status = entry.response.status;
    if (status >= 200 && status < 300) op.s2++;
    else if (status >= 500) op.s5++;
    else if (status >= 400) op.s4++;
  }
}

const problems = [];
ops.sort((a, b) => a.template.localeCompare(b.template) || a.method.localeCompare(b.method));
console.log('operation | keyed | requests | 2xx | 4xx | 5xx');
for (const o of ops) {
  console.log(`${o.id} | ${o.keyed ? 'key' : 'open'} | ${o.n} | ${o.s2} | ${o.s4} | ${o.s5}`);
  // The document itself is what schemathesis loads (and the seed script reads) before any test: not an operation it tests.
  if (o.n === 0 && o.template !== '/openapi.json') problems.push(`${o.id}: never exercised`);
  if (o.s5 > 0) problems.push(`${o.id}: ${o.s5} server error(s)`);
  if (o.keyed && o.n > 0 && o.s2 === 0) problems.push(`${o.id}: keyed, no 2xx reached`);
}
const keyed = ops.filter((o) => o.keyed);
const keyed2xx = keyed.filter((o) => o.s2 > 0).length;
console.log(
  `operations: ${ops.length} in the document, ${ops.filter((o) => o.n > 0).length} exercised; keyed: ${keyed.length}, ${keyed2xx} reached 2xx; ` +
    `${otherMethod} undeclared-method probe(s) at known paths${unmatched ? `; ${unmatched} request(s) at no known path` : ''}`,
);
for (const p of problems) console.log(`problem: ${p}`);
process.exit(problems.length ? 1 : 0);
