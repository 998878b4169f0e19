// A small EHR FHIR server for the tests: a real HTTP server on loopback speaking FHIR R4 REST (application/fhir+json)
// over the resources it is given: `GET /metadata`, read `GET /{type}/{id}`, search `GET /{type}?...` (a searchset
// Bundle; Coverage by patient and status, any type by _id), bearer-token authorization (401 OperationOutcome
// otherwise), 404 OperationOutcome for an unknown id. It records what was asked (path and whether the right token
// came, never the token) and can be slowed down to test timeouts.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface EhrServer {
  /** The FHIR base, e.g. http://127.0.0.1:41234/fhir */
  url: string;
  requests: { method: string; path: string; authorized: boolean }[];
  /** Milliseconds to wait before answering (0 by default). */
  delayMs: number;
  close(): Promise<void>;
}

const FHIR_JSON = 'application/fhir+json';

const outcome = (code: string, diagnostics: string) => ({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code, diagnostics }] });

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': `${FHIR_JSON}; charset=utf-8`, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function matches(r: Any, name: string, value: string): boolean {
  const ref = (x: unknown) => typeof x === 'string' && (x === value || x.endsWith(`/${value}`) || x === `Patient/${value}`);
  switch (name) {
    case '_id':
      return r.id === value;
    case 'patient':
    case 'beneficiary':
      return ref(r.beneficiary?.reference) || ref(r.subject?.reference) || ref(r.patient?.reference);
    case 'status':
      return r.status === value;
    default:
      return true; // parameters this server does not support are ignored, as FHIR allows (and not echoed in self)
  }
}

export async function startEhrServer(resources: Any[], token: string): Promise<EhrServer> {
  const byKey = new Map(resources.map((r) => [`${r.resourceType}/${r.id}`, r]));
  const state: EhrServer = { url: '', requests: [], delayMs: 0, close: async () => undefined };
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const u = new URL(req.url ?? '/', 'http://x');
    const authorized = req.headers.authorization === `Bearer ${token}`;
    state.requests.push({ method: req.method ?? '', path: `${u.pathname}${u.search}`, authorized });
    if (!u.pathname.startsWith('/fhir/')) return send(res, 404, outcome('not-found', 'Not a FHIR path'));
    const parts = u.pathname.slice('/fhir/'.length).split('/').filter(Boolean);
    if (req.method !== 'GET') return send(res, 405, outcome('not-supported', 'Read-only server'));
    if (parts[0] === 'metadata') {
      return send(res, 200, {
        resourceType: 'CapabilityStatement',
        status: 'active',
        date: '2026-11-25',
        kind: 'instance',
        fhirVersion: '4.0.1',
        format: [FHIR_JSON],
        rest: [{ mode: 'server', resource: [...new Set(resources.map((r) => r.resourceType))].map((type) => ({ type, interaction: [{ code: 'read' }, { code: 'search-type' }] })) }],
      });
    }
    if (!authorized) return send(res, 401, outcome('login', 'A valid bearer token is required'));
    if (parts.length === 2) {
      const hit = byKey.get(`${parts[0]}/${parts[1]}`);
      return hit ? send(res, 200, hit) : send(res, 404, outcome('not-found', `${parts[0]}/${parts[1]} is not known`));
    }
    if (parts.length === 1) {
      const found = resources.filter((r) => r.resourceType === parts[0] && [...u.searchParams].every(([k, v]) => matches(r, k, v)));
      return send(res, 200, {
        resourceType: 'Bundle',
        type: 'searchset',
        total: found.length,
        link: [{ relation: 'self', url: `${state.url}/${parts[0]}${u.search}` }],
        entry: found.map((r) => ({ fullUrl: `${state.url}/${r.resourceType}/${r.id}`, resource: r, search: { mode: 'match' } })),
      });
    }
    return send(res, 400, outcome('invalid', 'Unsupported interaction'));
  };
  const server: Server = createServer((req, res) => {
    req.resume();
    if (state.delayMs > 0) setTimeout(() => handle(req, res), state.delayMs).unref();
    else handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/fhir`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
