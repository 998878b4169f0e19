// The baseline: bare node:http answering fixed bytes (the same body and content type the service sends).
import { createServer } from 'node:http';
const body = Buffer.from(process.env.BARE_BODY ?? '{}');
const server = createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
