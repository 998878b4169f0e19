// FHIR RESTful search over an in-memory list of resources (the read model's precomputed projections): parameter
// parsing (modifiers, comma = OR, repetition = AND, escaped commas, date prefixes, system|code tokens),
// matching, `_count` paging with self/next links, `_include`, and unknown parameters handled as FHIR servers do:
// ignored and left out of the self link, or a 400 with `Prefer: handling=strict`. Generic: a declaration gives
// its parameters (name, type, how to read the values from a resource) and its includes.
import type { OpEnv, OpResult, SearchInput, SearchParamDecl } from './decl-types.js';
import type { Failure } from '../fhir/outcome.js';
import type { Bundle, BundleEntry, Resource } from '../fhir/r4.js';
import { daysInMonth } from '../domain/time.js';

export type TokenValue = { system?: string; code: string };
export type DateValue = { start?: string; end?: string };

/** A search parameter with the function that reads its values from a resource. */
export type IndexedParam<R extends Resource> = SearchParamDecl &
  (
    | { type: 'token'; values(r: R): TokenValue[] }
    | { type: 'string'; values(r: R): string[] }
    | { type: 'date'; values(r: R): DateValue[] }
    | { type: 'reference'; values(r: R): string[] }
  );

export interface SearchSpec<R extends Resource> {
  resourceType: R['resourceType'];
  params: readonly IndexedParam<R>[];
  /** `_include` targets: `Type:param` -> the references (`Type/id`) of a resource. */
  includes?: Readonly<Record<string, (r: R) => string[]>>;
}

export interface SearchData<R extends Resource> {
  resources: readonly R[];
  resolve(ref: string): Resource | undefined;
  /** Whether the caller may see a resource (its subscription scope). */
  visible(r: Resource): boolean;
}

export const DEFAULT_COUNT = 50;
export const MAX_COUNT = 1000;
/** Result parameters we act on, and those we accept without effect (no error even with handling=strict). */
const RESULT_PARAMS = new Set(['_count', '_offset', '_include']);
const HARMLESS = new Set(['_format', '_pretty']);

const bad = (message: string, expression?: string): Failure => ({ status: 400, code: 'invalid_parameter', message, ...(expression ? { expression } : {}) });

/** Splits a parameter value on commas that are not escaped with a backslash, and unescapes `\,`. */
export function splitOr(value: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === '\\' && (value[i + 1] === ',' || value[i + 1] === '\\' || value[i + 1] === '$' || value[i + 1] === '|')) {
      cur += value[i + 1];
      i++;
    } else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

// ---- dates: every value is a half-open range [low, high) in epoch ms ----
type Range = { low: number; high: number };
const DATE_RE = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/;

/** The range a FHIR date/dateTime/instant covers (its precision), or undefined when it is not one. */
export function dateRange(v: string): Range | undefined {
  const m = DATE_RE.exec(v);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, tz] = m;
  const year = Number(y);
  if (mo === undefined) return { low: Date.UTC(year, 0, 1), high: Date.UTC(year + 1, 0, 1) };
  const month = Number(mo) - 1;
  if (month > 11) return undefined;
  if (d === undefined) return { low: Date.UTC(year, month, 1), high: Date.UTC(year, month + 1, 1) };
  const day = Number(d);
  // A real calendar day (2026-02-30 is not one).
  if (day < 1 || day > daysInMonth(year, month + 1)) return undefined;
  if (h === undefined) return { low: Date.UTC(year, month, day), high: Date.UTC(year, month, day + 1) };
  const iso = `${y}-${mo}-${d}T${h}:${mi}:${s ?? '00'}${frac ? `.${frac.slice(0, 3)}` : ''}${tz ?? 'Z'}`;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return undefined;
  const step = s === undefined ? 60_000 : frac ? 1 : 1000;
  return { low: t, high: t + step };
}

const PREFIXES = ['eq', 'ne', 'gt', 'lt', 'ge', 'le', 'sa', 'eb', 'ap'] as const;
type Prefix = (typeof PREFIXES)[number];

function dateMatches(prefix: Prefix, q: Range, target: DateValue): boolean {
  const low = target.start ? dateRange(target.start)?.low ?? -Infinity : -Infinity;
  const high = target.end ? dateRange(target.end)?.high ?? Infinity : Infinity;
  if (low === -Infinity && high === Infinity) return false;
  const eq = low >= q.low && high <= q.high;
  switch (prefix) {
    case 'eq':
      return eq;
    case 'ne':
      return !eq;
    case 'gt':
      return high > q.high;
    case 'lt':
      return low < q.low;
    case 'ge':
      return high > q.high || eq || (low >= q.low && low < q.high);
    case 'le':
      return low < q.low || eq || (high > q.low && high <= q.high);
    case 'sa':
      return low >= q.high;
    case 'eb':
      return high <= q.low;
    case 'ap':
      return low < q.high && high > q.low;
  }
}

// ---- one parsed criterion: a parameter, its modifier and its OR-ed values ----
type Criterion<R extends Resource> = {
  param: IndexedParam<R>;
  test: (r: R) => boolean;
  /** Index keys any match must carry (token codes lower-cased, reference ids): narrows the scan. */
  keys?: string[];
  /** Carrying one of the keys is the whole test (no system or type to check as well). */
  keysDecide?: boolean;
};

function referenceKey(v: string, targetType: string | undefined): string {
  const parts = v.split('?')[0]!.split('/').filter(Boolean);
  if (parts.length >= 2 && /^[A-Z]/.test(parts.at(-2)!)) return `${parts.at(-2)}/${parts.at(-1)}`;
  return targetType ? `${targetType}/${v}` : v;
}

function criterion<R extends Resource>(param: IndexedParam<R>, modifier: string | undefined, raw: string, at: string): Criterion<R> | Failure {
  const values = splitOr(raw);
  if (values.some((v) => v === '')) return bad(`Empty value in '${at}'`, at);
  switch (param.type) {
    case 'string': {
      if (modifier && modifier !== 'exact' && modifier !== 'contains') return bad(`Modifier ':${modifier}' is not supported on '${param.name}' (supported: :exact, :contains)`, at);
      const norm = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
      const wanted = values.map((v) => (modifier === 'exact' ? v : norm(v)));
      const match = (s: string, w: string) => (modifier === 'exact' ? s === w : modifier === 'contains' ? norm(s).includes(w) : norm(s).startsWith(w));
      return { param, test: (r) => param.values(r).some((s) => wanted.some((w) => match(s, w))) };
    }
    case 'token': {
      if (modifier && modifier !== 'not') return bad(`Modifier ':${modifier}' is not supported on '${param.name}' (supported: :not)`, at);
      const wanted = values.map((v) => {
        const bar = v.indexOf('|');
        return bar === -1 ? { code: v } : { system: v.slice(0, bar), code: v.slice(bar + 1) };
      });
      const hit = (t: TokenValue) =>
        wanted.some((w) => ('system' in w ? (w.system === '' ? !t.system : t.system === w.system) && (w.code === '' || t.code.toLowerCase() === w.code.toLowerCase()) : t.code.toLowerCase() === w.code.toLowerCase()));
      return modifier === 'not'
        ? { param, test: (r) => !param.values(r).some(hit) }
        : {
            param,
            test: (r) => param.values(r).some(hit),
            ...(wanted.every((w) => w.code !== '') ? { keys: wanted.map((w) => w.code.toLowerCase()), keysDecide: wanted.every((w) => !('system' in w)) } : {}),
          };
    }
    case 'reference': {
      if (modifier && !/^[A-Z][A-Za-z]+$/.test(modifier)) return bad(`Modifier ':${modifier}' is not supported on '${param.name}' (a resource type is)`, at);
      const wanted = values.map((v) => referenceKey(v, modifier));
      return {
        param,
        test: (r) => param.values(r).some((ref) => wanted.some((w) => (w.includes('/') ? ref === w : ref.endsWith(`/${w}`)))),
        keys: wanted.map((w) => w.split('/').at(-1)!),
        keysDecide: wanted.every((w) => !w.includes('/')),
      };
    }
    case 'date': {
      if (modifier) return bad(`Modifier ':${modifier}' is not supported on '${param.name}'`, at);
      const parsed: { prefix: Prefix; range: Range }[] = [];
      for (const v of values) {
        const prefix = (PREFIXES as readonly string[]).includes(v.slice(0, 2)) ? (v.slice(0, 2) as Prefix) : 'eq';
        const range = dateRange(prefix === 'eq' && !v.startsWith('eq') ? v : v.slice(2));
        if (!range) return bad(`Invalid date '${v.slice(0, 40)}' in '${at}': expected [prefix]YYYY[-MM[-DD[Thh:mm[:ss][Z|+hh:mm]]]]`, at);
        parsed.push({ prefix, range });
      }
      return { param, test: (r) => param.values(r).some((d) => parsed.some((p) => dateMatches(p.prefix, p.range, d))) };
    }
  }
}

/** The previous page's offset: one page back, or the last page holding matches when this one lies past the end. */
export function previousOffset(offset: number, count: number, total: number): number {
  if (count <= 0) return 0;
  const lastPageStart = Math.max(0, Math.ceil(total / count) - 1) * count;
  return Math.max(0, Math.min(offset - count, lastPageStart));
}

/** Runs a search: a searchset Bundle (one page) or a 400 Failure. */
export function runSearch<R extends Resource>(spec: SearchSpec<R>, data: SearchData<R>, input: SearchInput, env: Pick<OpEnv, 'base'>): OpResult<Bundle> {
  const byName = new Map(spec.params.map((p) => [p.name, p]));
  const criteria: Criterion<R>[] = [];
  const kept: [string, string][] = [];
  const ignored: string[] = [];
  let count = DEFAULT_COUNT;
  let offset = 0;
  const includes: string[] = [];
  for (const [key, value] of input.params) {
    const [name, modifier] = key.split(':', 2) as [string, string | undefined];
    if (RESULT_PARAMS.has(name)) {
      if ((name === '_count' || name === '_offset') && input.params.getAll(key).length > 1) {
        return bad(`${name} is given more than once: give it once`, name);
      }
      if (name === '_count') {
        const n = Number(value);
        if (!/^\d+$/.test(value) || n > MAX_COUNT) return bad(`_count must be a whole number from 0 to ${MAX_COUNT}`, '_count');
        count = n;
      } else if (name === '_offset') {
        if (!/^\d+$/.test(value)) return bad('_offset must be a whole number', '_offset');
        offset = Number(value);
        continue; // written fresh into the links
      } else {
        const added: string[] = [];
        for (const inc of splitOr(value)) {
          if (!spec.includes?.[inc]) {
            if (input.strict) return bad(`_include '${inc.slice(0, 60)}' is not supported on ${spec.resourceType} (supported: ${Object.keys(spec.includes ?? {}).join(', ') || 'none'})`, '_include');
            ignored.push(`_include=${inc}`);
            continue;
          }
          added.push(inc);
        }
        includes.push(...added);
        if (added.length) kept.push([key, added.join(',')]);
        continue;
      }
      kept.push([key, value]);
      continue;
    }
    if (HARMLESS.has(name)) continue;
    const param = byName.get(name);
    if (!param) {
      if (input.strict) return bad(`Unknown or unsupported search parameter '${key.slice(0, 60)}' on ${spec.resourceType} (supported: ${spec.params.map((p) => p.name).join(', ')})`, key.slice(0, 60));
      ignored.push(key);
      continue;
    }
    const c = criterion(param, modifier, value, key);
    if ('status' in c) return c;
    criteria.push(c);
    kept.push([key, value]);
  }

  const { list, decided } = candidates(data.resources, criteria);
  const rest = criteria.filter((c) => c !== decided);
  const matches = list.filter((r) => data.visible(r) && rest.every((c) => c.test(r)));
  const page = matches.slice(offset, offset + count);
  const url = (r: Resource) => `${env.base}/v1/${r.resourceType}/${r.id}`;
  const entry: BundleEntry[] = page.map((r) => ({ fullUrl: url(r), resource: r, search: { mode: 'match' } }));
  const seen = new Set(page.map((r) => `${r.resourceType}/${r.id}`));
  for (const inc of includes) {
    for (const r of page) {
      for (const ref of spec.includes![inc]!(r)) {
        if (seen.has(ref)) continue;
        const target = data.resolve(ref);
        if (!target || !data.visible(target)) continue;
        seen.add(ref);
        entry.push({ fullUrl: url(target), resource: target, search: { mode: 'include' } });
      }
    }
  }
  const link = (at: number) => {
    const q = new URLSearchParams(kept);
    if (!q.has('_count')) q.set('_count', String(count));
    if (at) q.set('_offset', String(at));
    return `${input.selfBase}?${q.toString()}`;
  };
  return {
    body: {
      resourceType: 'Bundle',
      type: 'searchset',
      total: matches.length,
      link: [
        { relation: 'self', url: link(offset) },
        ...(count > 0 && offset + count < matches.length ? [{ relation: 'next', url: link(offset + count) }] : []),
        // From past the end, previous is the last page that holds matches (not another empty one).
        ...(offset > 0 ? [{ relation: 'previous', url: link(previousOffset(offset, count, matches.length)) }] : []),
      ],
      entry: [
        ...entry,
        // Parameters we did not apply are said so (and are not in the self link), as FHIR servers do.
        ...(ignored.length
          ? [
              {
                resource: {
                  resourceType: 'OperationOutcome' as const,
                  issue: [{ severity: 'warning' as const, code: 'not-supported' as const, diagnostics: `Ignored: ${ignored.map((i) => i.slice(0, 60)).join(', ')} (send Prefer: handling=strict to get an error instead)` }],
                },
                search: { mode: 'outcome' as const },
              },
            ]
          : []),
      ],
    },
  };
}

// ---- value indexes: built once per resource list (the lists are per read model, so per corpus version) ----
const indexes = new WeakMap<readonly Resource[], Map<string, Map<string, number[]>>>();

/** Positions of the resources carrying each token code (lower-cased) or reference id of a parameter. */
function valueIndex<R extends Resource>(resources: readonly R[], param: IndexedParam<R>): Map<string, number[]> {
  let perList = indexes.get(resources);
  if (!perList) indexes.set(resources, (perList = new Map()));
  let index = perList.get(param.name);
  if (!index) {
    index = new Map();
    resources.forEach((r, i) => {
      const keys =
        param.type === 'token' ? param.values(r).map((v) => v.code.toLowerCase()) : param.type === 'reference' ? param.values(r).map((v) => v.split('/').at(-1)!) : [];
      for (const k of new Set(keys)) {
        const list = index!.get(k);
        if (list) list.push(i);
        else index!.set(k, [i]);
      }
    });
    perList.set(param.name, index);
  }
  return index;
}

/** The resources worth testing: those the narrowest indexed criterion can match (in list order), else all of them. */
function candidates<R extends Resource>(resources: readonly R[], criteria: readonly Criterion<R>[]): { list: readonly R[]; decided?: Criterion<R> } {
  let best: { hits: number[]; c: Criterion<R> } | undefined;
  for (const c of criteria) {
    if (!c.keys || (c.param.type !== 'token' && c.param.type !== 'reference')) continue;
    const index = valueIndex(resources, c.param);
    const hits = c.keys.length === 1 ? (index.get(c.keys[0]!) ?? []) : [...new Set(c.keys.flatMap((k) => index.get(k) ?? []))].sort((a, b) => a - b);
    if (!best || hits.length < best.hits.length) best = { hits, c };
  }
  if (!best) return { list: resources };
  return { list: best.hits.map((i) => resources[i]!), ...(best.c.keysDecide ? { decided: best.c } : {}) };
}
