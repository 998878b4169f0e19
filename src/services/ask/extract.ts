// Reads a free-text question: the state, the program and the drugs or services it asks about. Pure over the read
// model; every finding says which words it came from (`matched`) and how (`by`).
import { distance } from 'fastest-levenshtein';
import type { ReadModel } from '../../corpus/read-model.js';
import { isJurisdiction, type Program, type SubjectKind } from '../../domain/vocabulary.js';
import { CODE_PATTERN, resolveCode } from '../resolve-code.js';
import { crosswalkIndex } from '../explore/crosswalk.js';
import { squash } from '../explore/normalize.js';
import { AMBIGUOUS_CODES, DRUG_CLASS_PATTERNS, PROGRAM_PATTERNS, SERVICE_PATTERNS } from './synonyms.js';

export interface Found<T> {
  value: T;
  matched: string;
  by: string;
}
export interface FoundSubject {
  kind: SubjectKind;
  code: string;
  matched: string;
  by: 'brand' | 'generic' | 'class_name' | 'service_name' | 'cpt_hcpcs' | 'fuzzy_brand' | 'fuzzy_generic';
}
export interface Extraction {
  states: Found<string>[];
  programs: Found<Program | 'medicaid' | 'medicare'>[];
  subjects: FoundSubject[];
  /** Names that look like a drug but match none (after fuzzy matching), for the clarifying answer. */
  unknownCodes: string[];
  /** The question without the words that named a state, program, plan, drug or service (what is left to search). */
  rest: string;
}

interface NameTables {
  /** Lower-case state names and program brand names, longest first: [name, state, program hint]. */
  names: [string, string, Program | 'medicaid' | undefined][];
  payers: [string, string[], Program[]][];
}
const tables = new WeakMap<ReadModel, NameTables>();

function nameTables(model: ReadModel): NameTables {
  let t = tables.get(model);
  if (t) return t;
  const names: NameTables['names'] = [];
  for (const j of model.jurisdictions.values()) {
    names.push([j.name.toLowerCase(), j.id, undefined]);
    for (const n of programNames(j.medicaidProgramName)) if (!/^medicaid$/i.test(n)) names.push([n.toLowerCase(), j.id, 'medicaid']);
    for (const n of programNames(j.chipProgramName)) if (!/^chip$/i.test(n)) names.push([n.toLowerCase(), j.id, 'chip']);
  }
  names.push(['washington dc', 'DC', undefined], ['washington, d.c.', 'DC', undefined], ['d.c.', 'DC', undefined]);
  names.sort((a, b) => b[0].length - a[0].length);
  const payers: NameTables['payers'] = [...model.payers.values()].map((p) => [p.name.toLowerCase(), p.jurisdictions, p.programs]);
  payers.sort((a, b) => b[0].length - a[0].length);
  t = { names, payers };
  tables.set(model, t);
  return t;
}

/** "Texas Medicaid (STAR, STAR+PLUS)" -> "Texas Medicaid", "STAR", "STAR+PLUS"; explanatory parentheses are dropped. */
function programNames(raw: string | undefined): string[] {
  if (!raw) return [];
  const m = /^(.*?)\s*\((.*)\)\s*$/.exec(raw);
  const outer = (m ? m[1]! : raw).trim();
  const inner = m && !/\b(chip|funded|coverage|within)\b/i.test(m[2]!) ? m[2]!.split(/\s*,\s*/) : [];
  return [outer, ...inner].filter((n) => n.length > 3);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The question as it is read: `s` with what was found blanked out, and `low`, its lower case (kept in step). */
interface Text {
  s: string;
  low: string;
}

/** Finds `name` on word boundaries and blanks it out of `text` so shorter names inside it do not match again. */
function take(text: Text, name: string): string | undefined {
  if (!text.low.includes(name.toLowerCase())) return undefined; // most names are absent: skip the RegExp
  const re = new RegExp(`(?<![\\w-])${escape(name)}(?![\\w-])`, 'i');
  const m = re.exec(text.s);
  if (!m) return undefined;
  text.s = text.s.slice(0, m.index) + ' '.repeat(m[0].length) + text.s.slice(m.index + m[0].length);
  text.low = text.s.toLowerCase();
  return m[0];
}

export function extract(model: ReadModel, question: string): Extraction {
  const { names, payers } = nameTables(model);
  const text: Text = { s: question, low: question.toLowerCase() };
  const states: Found<string>[] = [];
  const programs: Extraction['programs'] = [];
  const subjects: FoundSubject[] = [];
  const addState = (f: Found<string>) => states.some((s) => s.value === f.value) || states.push(f);
  const addProgram = (f: Extraction['programs'][number]) => programs.some((p) => p.value === f.value) || programs.push(f);
  const addSubject = (f: FoundSubject) => subjects.some((s) => s.kind === f.kind && s.code === f.code) || subjects.push(f);

  // Plan names first (they carry state and program), then program brand names, then state names.
  for (const [name, jurisdictions, progs] of payers) {
    const m = take(text, name);
    if (!m) continue;
    if (jurisdictions.length === 1) addState({ value: jurisdictions[0]!, matched: m, by: 'plan_name' });
    if (progs.length === 1) addProgram({ value: progs[0]!, matched: m, by: 'plan_name' });
  }
  for (const [name, state, program] of names) {
    const m = take(text, name);
    if (!m) continue;
    addState({ value: state, matched: m, by: program ? 'program_name' : 'name' });
    if (program) addProgram({ value: program, matched: m, by: 'program_name' });
  }
  // USPS codes: upper case in the question, not one of the words that mean something else in a PA question;
  // a lower-case code only right before a program word ("tx medicaid").
  for (const m of question.matchAll(/(?<![\w-])([A-Z]{2})(?![\w-])/g)) {
    if (isJurisdiction(m[1]!) && !AMBIGUOUS_CODES.has(m[1]!)) addState({ value: m[1]!, matched: m[1]!, by: 'code' });
  }
  for (const m of question.matchAll(/(?<![\w-])([a-z]{2})\s+(?=medicaid|medicare|chip|mco)/gi)) {
    const code = m[1]!.toUpperCase();
    if (isJurisdiction(code) && !AMBIGUOUS_CODES.has(code) && m[1] !== m[1]!.toUpperCase()) addState({ value: code, matched: m[1]!, by: 'code' });
  }

  for (const [re, program] of PROGRAM_PATTERNS) {
    const m = re.exec(text.s);
    if (m) {
      addProgram({ value: program, matched: m[0], by: 'synonym' });
      take(text, m[0]);
    }
  }
  if (/\bMA\b/.test(question) && !programs.length) addProgram({ value: 'medicare_advantage', matched: 'MA', by: 'synonym' });
  if (!programs.some((p) => p.value.startsWith('medicaid') || p.value === 'chip' || p.value === 'dual_eligible')) {
    const m = /\bmedicaid\b/i.exec(text.s);
    if (m) addProgram({ value: 'medicaid', matched: m[0], by: 'ambiguous' });
  }
  if (!programs.some((p) => p.value.startsWith('medicare') || p.value === 'part_d' || p.value === 'dual_eligible')) {
    const m = /\bmedicare\b/i.exec(text.s);
    if (m) addProgram({ value: 'medicare', matched: m[0], by: 'ambiguous' });
  }

  // Codes (CPT, HCPCS) resolve through the state's PA list, then the national ranges.
  const stateForCodes = states.length === 1 ? states[0]!.value : '';
  for (const m of question.matchAll(/(?<![\w-])(\d{5}|\d{4}[FTU]|[A-V]\d{4})(?![\w-])/g)) {
    if (!CODE_PATTERN.test(m[1]!)) continue;
    const r = resolveCode(model, stateForCodes, m[1]!);
    if (r) addSubject({ kind: 'service', code: r.service_category, matched: m[1]!, by: 'cpt_hcpcs' });
    take(text, m[1]!);
  }
  // Drug names from the crosswalk (brands and generics, one to three words), then class words, then services.
  const ix = crosswalkIndex(model);
  const words = [...text.s.matchAll(/[A-Za-z][A-Za-z0-9-]*/g)].map((m) => m[0]);
  const unknown: string[] = [];
  for (let n = 3; n >= 1; n--) {
    for (let i = 0; i + n <= words.length; i++) {
      const phrase = words.slice(i, i + n).join(' ');
      const key = squash(phrase);
      if (key.length < 4) continue;
      const brand = ix.byBrand.get(key);
      const generic = ix.byGeneric.get(key);
      const hit = brand ?? generic;
      if (!hit || !take(text, phrase)) continue;
      for (const h of hit) addSubject({ kind: 'drug', code: h.doc.drugClass, matched: phrase, by: brand ? 'brand' : 'generic' });
    }
  }
  for (const [re, drugClass] of DRUG_CLASS_PATTERNS) {
    const m = re.exec(text.s);
    if (m) {
      addSubject({ kind: 'drug', code: drugClass, matched: m[0], by: 'class_name' });
      take(text, m[0]);
    }
  }
  for (const [re, category] of SERVICE_PATTERNS) {
    const m = re.exec(text.s);
    if (m) {
      addSubject({ kind: 'service', code: category, matched: m[0], by: 'service_name' });
      take(text, m[0]);
    }
  }
  // Misspelt drug names: a remaining word of 5+ letters within a small edit distance of a brand or generic.
  if (!subjects.length) {
    const remaining = [...text.s.matchAll(/[A-Za-z]{5,}/g)].map((m) => m[0]).filter((w) => !COMMON.has(w.toLowerCase()));
    for (const w of remaining) {
      const q = squash(w);
      const best = [...ix.brandNames.map((n) => [n, 'fuzzy_brand'] as const), ...ix.genericNames.map((n) => [n, 'fuzzy_generic'] as const)]
        .map(([n, by]) => ({ n, by, d: distance(q, squash(n)) }))
        .filter((x) => x.d <= (q.length >= 8 ? 2 : 1))
        .sort((a, b) => a.d - b.d)[0];
      if (!best) continue;
      const hits = (best.by === 'fuzzy_brand' ? ix.byBrand : ix.byGeneric).get(squash(best.n)) ?? [];
      for (const h of hits) addSubject({ kind: 'drug', code: h.doc.drugClass, matched: w, by: best.by });
    }
  }
  return { states, programs, subjects, unknownCodes: unknown, rest: text.s.replace(/\s+/g, ' ').trim() };
}

/** Common words of 5+ letters that must never be read as a misspelt drug name. */
const COMMON = new Set(
  'about above after again against authorization authorisation before being below between could coverage covered does doing during every first first from getting having medicaid medicare their there these thing those through under until usually where which while would patient patients member members prior require required requires requirement doctor physician approval approved denied denial state states program plans planning appeal appeals cover covers insurance therapy treatment drugs drug medication medications service services needs prescription need needed someone there'.split(' '),
);
