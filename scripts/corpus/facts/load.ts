// Reads and checks the curated fact files (corpus/facts/*.yaml, corpus/facts/national/*.yaml). Every problem is
// collected, so one build run lists them all; the build fails when any is found.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse as parseYaml } from 'yaml';
import type { PaMode } from '../../../src/domain/documents.js';
import type { PaType, Program, SubjectKind } from '../../../src/domain/vocabulary.js';
import { factFileSchema, officialDomainsSchema } from './schema.js';

export interface FactSource {
  id: string;
  url: string;
  title: string;
  publisher: string;
  date?: string;
}

export interface FactEvidence {
  source: FactSource;
  locator: string;
  quote?: string;
}

export interface Fact {
  /** corpus/facts/TX.yaml#tx-pdl-hepatitis-c */
  ref: string;
  id: string;
  /** The file's jurisdiction (a USPS code, or national). */
  file: string;
  jurisdictions: readonly string[] | 'all';
  programs: readonly Program[];
  subjects: readonly string[] | { kind: SubjectKind };
  scopeBasis?: string;
  /** A hand-over: these programs take the followed program's rule for the same jurisdiction and subject. */
  follows?: Program;
  /** A hand-over for some members only (for example duals enrolled in a Medicare Advantage plan): served as applies_to. */
  population?: string;
  /**
   * The program whose agency decides requests (and whose appeals apply) for the fact's other programs: a benefit carved
   * out of managed care (pharmacy paid and decided fee-for-service for plan members). One of the fact's programs.
   */
  decidedBy?: Program;
  requirement?: {
    pa_required: boolean;
    pa_type: PaType;
    pa_mode?: PaMode;
    criteria: string;
    documentation?: string[];
    step_therapy?: string;
    quantity_limit?: string;
    new_starts_only?: boolean;
    /** Whom the requirement is limited to (for example members under 18); the rule claims nothing for others. */
    population?: string;
    /** The population's ages in whole years, inclusive, where the source states them. */
    ages?: { min?: number; max?: number };
    /** The source says the program does not cover the subject (or a use of it): served as an exclusion. */
    not_covered?: true;
  };
  submission?: { channel: 'portal' | 'fax' | 'phone' | 'epa' | 'x12_278' | 'fhir_pas' | 'mail' | 'payer_process' | 'none'; target: string; url?: string; phone?: string; fax?: string };
  /** expedited_hours absent: the source offers no expedited review (served as 0 h; the basis says why). */
  clock?: { standard_hours: number; expedited_hours?: number; basis: string };
  effective?: { start?: string; end?: string };
  federalOverride?: boolean;
  evidence: readonly FactEvidence[];
  checked: string;
  review: { first_read: string; second_read?: string; disputed?: string; notes?: string; method?: string };
}

export interface LoadedFacts {
  facts: Fact[];
  files: string[];
  /** Every non-government host a source may be on: official-domains.yaml plus the files' accepted vendor_domains. */
  hosts: string[];
  errors: string[];
}

export const MAX_QUOTE = 300;

/** Government hosts are official by rule: *.gov, and the state domains *.state.XX.us / *.XX.us. */
export function isGovernmentHost(host: string): boolean {
  return host === 'gov' || host.endsWith('.gov') || /(^|\.)[a-z]{2}\.us$/.test(host);
}

export function hostAllowed(host: string, listed: readonly string[]): boolean {
  return isGovernmentHost(host) || listed.some((d) => host === d || host.endsWith(`.${d}`));
}

const ajv = new Ajv2020({ allErrors: true, strict: false });
const validateFile = ajv.compile(factFileSchema);
const validateDomains = ajv.compile(officialDomainsSchema);

function schemaErrors(where: string, errors: typeof validateFile.errors, raw?: unknown): string[] {
  const factId = (path: string): string => {
    const m = /^\/facts\/(\d+)/.exec(path);
    const id = m ? (raw as { facts?: { id?: unknown }[] })?.facts?.[Number(m[1])]?.id : undefined;
    return typeof id === 'string' ? ` (fact ${id})` : '';
  };
  return (errors ?? []).slice(0, 10).map((e) => `${where}: ${e.instancePath || '/'}${factId(e.instancePath)} ${e.message ?? 'invalid'}`);
}

/** Every *.yaml under dir (and dir/national), FORMAT and the domain list excluded, in a stable order. */
function factFiles(dir: string): string[] {
  const out: string[] = [];
  for (const sub of ['', 'national']) {
    const d = join(dir, sub);
    if (!existsSync(d)) continue;
    for (const f of readdirSync(d).sort()) {
      if (f.endsWith('.yaml') && f !== 'official-domains.yaml') out.push(join(d, f));
    }
  }
  return out;
}

interface RawFile {
  jurisdiction: string;
  vendor_domains?: { host: string; who: string; named_by: string }[];
  sources: FactSource[];
  facts: (Omit<Fact, 'ref' | 'file' | 'evidence' | 'jurisdictions' | 'scopeBasis' | 'federalOverride' | 'decidedBy'> & {
    jurisdictions?: string[];
    scope_basis?: string;
    decided_by?: Program;
    federal_override?: boolean;
    evidence: { source: string; locator: string; quote?: string }[];
  })[];
}

export function loadFacts(dir: string, root = dir): LoadedFacts {
  const errors: string[] = [];
  const facts: Fact[] = [];
  const files = factFiles(dir);
  let listed: string[] = [];
  const vendors: string[] = [];
  const domainsFile = join(dir, 'official-domains.yaml');
  if (existsSync(domainsFile)) {
    const raw: unknown = parseYaml(readFileSync(domainsFile, 'utf8'));
    if (!validateDomains(raw)) errors.push(...schemaErrors(relative(root, domainsFile), validateDomains.errors));
    else listed = (raw as { domains: { host: string }[] }).domains.map((d) => d.host);
  }

  for (const path of files) {
    const where = relative(root, path);
    let raw: unknown;
    try {
      raw = parseYaml(readFileSync(path, 'utf8'));
    } catch (e) {
      errors.push(`${where}: not valid YAML: ${(e as Error).message.split('\n')[0]}`);
      continue;
    }
    if (!validateFile(raw)) {
      errors.push(...schemaErrors(where, validateFile.errors, raw));
      continue;
    }
    const file = raw as RawFile;
    const stem = path.split('/').pop()!.replace(/\.yaml$/, '');
    const national = file.jurisdiction === 'national';
    if (!national && stem !== file.jurisdiction) errors.push(`${where}: jurisdiction ${file.jurisdiction} does not match the file name`);
    if (national && !path.includes('/national/')) errors.push(`${where}: a national file belongs in corpus/facts/national/`);

    const allowed = [...listed];
    for (const v of file.vendor_domains ?? []) {
      const namer = new URL(v.named_by).hostname;
      if (!isGovernmentHost(namer)) errors.push(`${where}: vendor domain ${v.host} is named by ${namer}, which is not a government host`);
      else { allowed.push(v.host); vendors.push(v.host); }
    }

    const sources = new Map<string, FactSource>();
    for (const s of file.sources) {
      if (sources.has(s.id)) errors.push(`${where}: source ${s.id} listed twice`);
      sources.set(s.id, s);
      const host = new URL(s.url).hostname.toLowerCase();
      if (!hostAllowed(host, allowed)) {
        errors.push(`${where}: source ${s.id} is on ${host}, which is not an official host (a government host, official-domains.yaml, or the file's vendor_domains)`);
      }
    }

    const ids = new Set<string>();
    for (const f of file.facts) {
      const ref = `${where}#${f.id}`;
      if (ids.has(f.id)) errors.push(`${ref}: fact id used twice`);
      ids.add(f.id);
      let jurisdictions: readonly string[] | 'all';
      if (national) {
        if (!f.jurisdictions) { errors.push(`${ref}: a national fact lists its jurisdictions (or [all])`); continue; }
        jurisdictions = f.jurisdictions[0] === 'all' ? 'all' : f.jurisdictions;
      } else {
        if (f.jurisdictions && (f.jurisdictions.length !== 1 || f.jurisdictions[0] !== file.jurisdiction)) {
          errors.push(`${ref}: a state file's facts are about ${file.jurisdiction} only`);
        }
        jurisdictions = [file.jurisdiction];
        if ((f.programs.includes('medicaid_mco') || f.programs.includes('chip')) && !f.scope_basis) {
          errors.push(`${ref}: covers medicaid_mco or chip without scope_basis (why the fact applies there)`);
        }
      }
      if (f.follows) {
        if (f.requirement || f.submission || f.clock || f.effective) errors.push(`${ref}: a follows fact sets no requirement, submission, clock or effective of its own`);
        if (!f.scope_basis) errors.push(`${ref}: a follows fact needs scope_basis (why ${f.follows}'s rule applies to ${f.programs.join(', ')})`);
        if (f.programs.includes(f.follows)) errors.push(`${ref}: follows ${f.follows}, one of its own programs`);
      } else if (f.population) errors.push(`${ref}: population on a fact of its own goes in its requirement (top-level population is a hand-over's)`);
      else if (!f.requirement && !f.submission && !f.clock && !f.effective) errors.push(`${ref}: states nothing (no requirement, submission, clock or effective)`);
      if (f.decided_by) {
        if (f.follows) errors.push(`${ref}: decided_by goes on a fact of its own, not on a hand-over (a hand-over's rule is already decided by the followed program)`);
        if (!f.programs.includes(f.decided_by) || f.programs.length < 2) errors.push(`${ref}: decided_by ${f.decided_by} must be one of the fact's programs, beside the ones it decides for`);
        if (!f.scope_basis) errors.push(`${ref}: decided_by needs scope_basis (the carve-out that puts the decision with ${f.decided_by})`);
      }
      const r = f.requirement;
      if (r) {
        const mode = r.pa_mode ?? 'required';
        if (r.pa_type === 'none' && r.pa_required) errors.push(`${ref}: pa_type none with pa_required true`);
        if (mode === 'voluntary' && r.pa_required) errors.push(`${ref}: pa_mode voluntary is served as pa_required false`);
        if (mode !== 'voluntary' && r.pa_type !== 'none' && !r.pa_required) errors.push(`${ref}: pa_type ${r.pa_type} with pa_required false (use pa_type none, or pa_mode voluntary)`);
        if (r.not_covered && (r.pa_required || r.pa_type !== 'none' || r.pa_mode)) errors.push(`${ref}: not_covered goes with pa_required false and pa_type none only (an excluded subject has no PA route)`);
        if (r.ages && !r.population) errors.push(`${ref}: ages go with population (the words the source uses for them)`);
        if (r.ages?.min !== undefined && r.ages.max !== undefined && r.ages.min > r.ages.max) errors.push(`${ref}: ages min above max`);
      }
      if (f.effective?.start && f.effective.end && f.effective.start > f.effective.end) errors.push(`${ref}: effective start after end`);
      if (f.review.second_read && f.review.second_read === f.review.first_read) errors.push(`${ref}: the second read is by the first reader`);
      const evidence: FactEvidence[] = [];
      for (const e of f.evidence) {
        const source = sources.get(e.source);
        if (!source) { errors.push(`${ref}: evidence names unknown source ${e.source}`); continue; }
        if (!e.locator.trim()) errors.push(`${ref}: evidence without a locator`);
        if (e.quote && e.quote.length > MAX_QUOTE) errors.push(`${ref}: quote longer than ${MAX_QUOTE} characters (evidence, not content)`);
        evidence.push({ source, locator: e.locator, ...(e.quote ? { quote: e.quote } : {}) });
      }
      facts.push({
        ref, id: f.id, file: file.jurisdiction, jurisdictions, programs: f.programs, subjects: f.subjects,
        ...(f.scope_basis ? { scopeBasis: f.scope_basis } : {}),
        ...(f.follows ? { follows: f.follows } : {}),
        ...(f.population ? { population: f.population } : {}),
        ...(f.decided_by ? { decidedBy: f.decided_by } : {}),
        ...(r ? { requirement: r } : {}),
        ...(f.submission ? { submission: f.submission } : {}),
        ...(f.clock ? { clock: f.clock } : {}),
        ...(f.effective ? { effective: f.effective } : {}),
        ...(f.federal_override !== undefined ? { federalOverride: f.federal_override } : {}),
        evidence, checked: f.checked, review: f.review,
      });
    }
  }
  return { facts, files: files.map((f) => relative(root, f)), hosts: [...listed, ...vendors], errors };
}
