// The bare twin: node:http doing the same I/O as the service for each route and nothing else: reads the request
// body and JSON.parses it (when there is one), then writes the status, headers and body bytes the service answered.
// BARE_ROUTES is a JSON file { "<path>": { status, headers: [name, value, ...], body } }; BARE_BODY alone answers
// every path with those bytes (the lookup twin of earlier runs).
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const routes = new Map();
if (process.env.BARE_ROUTES) {
  for (const [path, r] of Object.entries(JSON.parse(readFileSync(process.env.BARE_ROUTES, 'utf8')))) routes.set(path, { ...r, body: Buffer.from(r.body) });
}
const fallback = { status: 200, headers: ['Content-Type', 'application/json; charset=utf-8'], body: Buffer.from(process.env.BARE_BODY ?? '{}') };

const server = createServer((req, res) => {
  const q = req.url.indexOf('?');
  const r = routes.get(q === -1 ? req.url : req.url.slice(0, q)) ?? fallback;
  const answer = () => {
    res.writeHead(r.status, [...r.headers, 'Content-Length', String(r.body.length)]);
    res.end(r.body);
  };
  if (req.method === 'GET' || req.method === 'HEAD') return answer();
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    JSON.parse(Buffer.concat(chunks).toString('utf8'));
    answer();
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
