// The rows of issue #25: each route against a bare node:http twin doing the same I/O (./bare-server.mjs), in one
// run, interleaved round by round, at saturation and at a fixed moderate rate, with the CPU time per request of
// both processes. Request bodies vary per call (CRD: new ids; PAS: a new submission) and are generated before the
// load starts as byte templates split at the ids, so a call costs the load generator one Buffer.concat.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { measure, type Row } from './options.js';
import { start, type Proc } from './procs.js';
import { submitBody } from './pas-submit.js';
import { orderSignThreeOrders } from '../test/support/crd-requests.js';

export interface TwinRoute {
  name: string;
  path: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  connections: number;
  /** Requests per second for the latency row: well below either process's saturation. */
  fixedRate: number;
  /** The body of the i-th call (POST routes). */
  body?: (i: number) => Buffer;
}

export interface TwinRow {
  route: string;
  service: Row;
  bare: Row;
  ratio: number;
  service_rounds_rps: number[];
  bare_rounds_rps: number[];
  fixed_rate: { rps: number; service: Row; bare: Row };
}

const DURATION = Number(process.env.BENCH_SECONDS ?? 6);
let calls = 0; // one sequence for every run, so no two calls of a run or of the next share ids
const MARK = '§ID§';
function bodies(template: string, prefix: string): (i: number) => Buffer {
  const parts = template.split(MARK).map((p) => Buffer.from(p));
  return (i) => {
    const id = Buffer.from(`${prefix}${process.pid}-${i}`);
    return Buffer.concat(parts.flatMap((p, k) => (k ? [id, p] : [p])));
  };
}

/** CRD order-sign, 3 draft orders: every call a new patient, coverage, encounter, orders and hook instance. */
export function crdBodies(prefix: string): (i: number) => Buffer {
  let t = JSON.stringify({ ...orderSignThreeOrders(), fhirServer: undefined, fhirAuthorization: undefined });
  for (const id of ['pat-ny', 'cov-ny-medicare', 'enc-ny-1', 'sr-mri', 'sr-pt', 'a1b2c3d4-0000-4000-8000-000000000001']) t = t.replaceAll(id, `${id}-${MARK}`);
  return bodies(t, prefix);
}

/** PAS $submit of the 24 KB example Bundle: every call a new submission (its own Bundle and Claim identifiers). */
export const pasBodies = (prefix: string): ((i: number) => Buffer) => bodies(JSON.stringify(submitBody(MARK)), prefix);

const median = (runs: Row[]): Row => [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)]!;

function load(r: TwinRoute, base: string, pid: number, title: string, extra: { overallRate?: number; connections?: number } = {}): Promise<Row> {
  const body = r.body;
  const requests = body ? [{ setupRequest: (req: object) => ({ ...req, body: body(calls++) }) }] : undefined;
  return measure(title, { url: `${base}${r.path}`, method: r.method, headers: r.headers, connections: extra.connections ?? r.connections, duration: DURATION, ...(requests ? { requests } : {}), ...(extra.overallRate ? { overallRate: extra.overallRate } : {}) }, pid);
}


/** Answers one call of each route from the service and starts a bare twin writing those bytes and headers. */
export async function startBareTwin(serviceUrl: string, routes: readonly TwinRoute[]): Promise<Proc> {
  const answers: Record<string, { status: number; headers: string[]; body: string }> = {};
  for (const r of routes) {
    const body = r.body?.(calls++);
    const res = await fetch(`${serviceUrl}${r.path}`, { method: r.method, headers: r.headers, ...(body ? { body: body.toString() } : {}) });
    if (res.status !== 200) throw new Error(`${r.name}: the service answered ${res.status}: ${await res.text()}`);
    const headers: string[] = [];
    res.headers.forEach((v, k) => !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(k) && headers.push(k, v));
    answers[r.path.split('?')[0]!] = { status: res.status, headers, body: await res.text() };
  }
  const file = join(tmpdir(), `prauth-bare-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(answers));
  return start(['bench/bare-server.mjs'], { BARE_ROUTES: file });
}

/** Saturation: `rounds` alternating runs of service and twin, medians; then one fixed-rate run of each. */
export async function twinRows(service: Proc, bare: Proc, routes: readonly TwinRoute[], rounds: number): Promise<TwinRow[]> {
  const out: TwinRow[] = [];
  for (const r of routes) {
    const svc: Row[] = [];
    const twin: Row[] = [];
    for (let k = 0; k < rounds; k++) {
      svc.push(await load(r, service.url, service.pid, `service ${r.name}`));
      twin.push(await load(r, bare.url, bare.pid, `bare ${r.name}`));
    }
    const rate = { overallRate: r.fixedRate, connections: Math.min(10, r.connections) };
    const fixedSvc = await load(r, service.url, service.pid, `service ${r.name} at ${r.fixedRate} req/s`, rate);
    const fixedBare = await load(r, bare.url, bare.pid, `bare ${r.name} at ${r.fixedRate} req/s`, rate);
    const s = median(svc);
    const b = median(twin);
    out.push({
      route: r.name,
      service: s,
      bare: b,
      ratio: Math.round((s.rps / b.rps) * 1000) / 1000,
      service_rounds_rps: svc.map((x) => x.rps),
      bare_rounds_rps: twin.map((x) => x.rps),
      fixed_rate: { rps: r.fixedRate, service: fixedSvc, bare: fixedBare },
    });
  }
  return out;
}

export function twinTable(rows: readonly TwinRow[]): string {
  const lines = ['| route | service req/s | bare req/s | ratio | CPU µs/req service / bare | p50/p99 ms saturated (service) | fixed rate | p50/p99 ms at fixed rate service / bare |', '|---|---|---|---|---|---|---|---|'];
  for (const r of rows) {
    const f = r.fixed_rate;
    lines.push(`| ${r.route} | ${r.service.rps} | ${r.bare.rps} | ${r.ratio} | ${r.service.cpuUsPerReq} / ${r.bare.cpuUsPerReq} | ${r.service.p50}/${r.service.p99} | ${f.rps} req/s | ${f.service.p50}/${f.service.p99} / ${f.bare.p50}/${f.bare.p99} |`);
  }
  return lines.join('\n');
}
