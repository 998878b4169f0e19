// Reads a free-text question: the state, the program and the drugs or services it asks about. Pure over the read
// model; every finding says which words it came from (`matched`) and how (`by`).
import { distance } from 'fastest-levenshtein';
import type { ReadModel } from '../../corpus/read-model.js';
import { isJurisdiction, type Program, type SubjectKind } from '../../domain/vocabulary.js';
import { CODE_PATTERN, resolveCode } from '../../corpus/resolve-code.js';
import { crosswalkIndex } from '../explore/crosswalk.js';
import { squash } from '../explore/normalize.js';
import { AMBIGUOUS_CODES, DRUG_CLASS_PATTERNS, PROGRAM_PATTERNS, PROGRAM_QUALIFIERS, SERVICE_PATTERNS, STATE_LOOKALIKES, type ProgramFamily } from './synonyms.js';

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
  /** State names as lower-case words, for misspellings, by word count then letters: [2][12] -> [["west", "virginia"] -> WV, ...]. */
  stateWords: { words: string[]; key: string; state: string }[][][];
  /** [words][letters]: whether a phrase of that many words and letters is within the edit budget of some state name. */
  stateNear: boolean[][];
  /** The words of state names of two or more words ("new", "north", "carolina"...): a misspelt one keeps one of them. */
  multiWordNameWords: ReadonlySet<string>;
  /** Brand then generic names, squashed, by length (a misspelling is compared with names of about its length only). */
  drugNamesByLength: Map<number, { key: string; by: 'fuzzy_brand' | 'fuzzy_generic'; order: number }[]>;
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
  const stateWords: NameTables['stateWords'] = [];
  const stateNear: NameTables['stateNear'] = [];
  const multiWordNameWords = new Set<string>();
  for (const j of model.jurisdictions.values()) {
    const words = j.name.toLowerCase().split(/\s+/);
    const key = words.join('');
    ((stateWords[words.length] ??= [])[key.length] ??= []).push({ words, key, state: j.id });
    if (words.length > 1) for (const w of words) multiWordNameWords.add(w);
    for (let letters = 5; letters <= key.length + 2; letters++) if (Math.abs(letters - key.length) <= editBudget(letters)) (stateNear[words.length] ??= [])[letters] = true;
  }
  const drugNamesByLength: NameTables['drugNamesByLength'] = new Map();
  const ix = crosswalkIndex(model);
  const drugNames = [...ix.brandNames.map((n) => [n, 'fuzzy_brand'] as const), ...ix.genericNames.map((n) => [n, 'fuzzy_generic'] as const)];
  drugNames.forEach(([n, by], order) => {
    const key = squash(n);
    const list = drugNamesByLength.get(key.length) ?? [];
    list.push({ key, by, order });
    drugNamesByLength.set(key.length, list);
  });
  t = { names, payers, stateWords, stateNear, multiWordNameWords, drugNamesByLength };
  tables.set(model, t);
  return t;
}

/** How far a misspelt name may be from the real one: 1 edit, or 2 for names of 8 letters or more (drugs and states alike). */
export const editBudget = (letters: number): number => (letters >= 8 ? 2 : 1);

/**
 * The states a phrase of one to three words misspells: the state names with as many words within the edit budget, at
 * the smallest distance (several on a tie). A word that differs from the name's word must not itself be a common
 * English word ("texts", "Indian", "marine" are not Texas, Indiana or Maine), nor a drug name.
 */
export function misspeltStates(model: ReadModel, words: readonly string[]): string[] {
  const lower = words.map((w) => w.toLowerCase());
  return /^[a-z]+$/.test(lower.join('')) ? closestStates(model, nameTables(model), lower) : [];
}

/** misspeltStates over lower-case words of letters only (the hot path: no checks, few allocations). */
function closestStates(model: ReadModel, t: NameTables, lower: readonly string[]): string[] {
  let letters = 0;
  for (const w of lower) letters += w.length;
  if (!t.stateNear[lower.length]?.[letters]) return []; // no state name of about this length
  const budget = editBudget(letters);
  const key = lower.length === 1 ? lower[0]! : lower.join('');
  const ix = crosswalkIndex(model);
  let best = Infinity;
  let found: string[] = [];
  for (let len = letters - budget; len <= letters + budget; len++) {
    for (const s of t.stateWords[lower.length]?.[len] ?? []) {
      if (key === s.key) continue;
      const d = distance(key, s.key);
      if (d > budget || d > best) continue;
      const changed = lower.filter((w, i) => w !== s.words[i]);
      if (changed.some((w) => COMMON.has(w) || STATE_LOOKALIKES.has(w) || ix.byBrand.has(w) || ix.byGeneric.has(w))) continue;
      if (d < best) found = [];
      best = d;
      found.push(s.state);
    }
  }
  return found;
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

interface Span {
  matched: string;
  start: number;
  end: number;
}

/** Blanks [start, end) out of `text` (same length, so positions stay those of the question). */
function blank(text: Text, start: number, end: number): void {
  text.s = text.s.slice(0, start) + ' '.repeat(end - start) + text.s.slice(end);
  text.low = text.s.toLowerCase();
}

/** Finds `name` on word boundaries and blanks it out of `text` so shorter names inside it do not match again. */
function takeSpan(text: Text, name: string): Span | undefined {
  if (!text.low.includes(name.toLowerCase())) return undefined; // most names are absent: skip the RegExp
  const re = new RegExp(`(?<![\\w-])${escape(name)}(?![\\w-])`, 'i');
  const m = re.exec(text.s);
  if (!m) return undefined;
  blank(text, m.index, m.index + m[0].length);
  return { matched: m[0], start: m.index, end: m.index + m[0].length };
}

const take = (text: Text, name: string): string | undefined => takeSpan(text, name)?.matched;

const QUALIFIER_AFTER = PROGRAM_QUALIFIERS.filter((q) => q.side !== 'before').map((q) => ({ ...q, re: new RegExp(`^(?:'s)?[\\s,:(\u2013\u2014-]*(?:${q.words})(?![\\w-])\\)?`, 'i') }));
const QUALIFIER_BEFORE = PROGRAM_QUALIFIERS.filter((q) => q.side !== 'after').map((q) => ({ ...q, re: new RegExp(`(?<![\\w-])(?:${q.words})[\\s,:\u2013\u2014-]*$`, 'i') }));

/**
 * A qualifier right beside a program family's name at `span` ("Ohio Medicaid fee-for-service"): the program it
 * makes, and the name and qualifier together (blanked out of `text`); undefined when none stands beside it.
 */
function qualify(text: Text, question: string, span: { start: number; end: number }, family: ProgramFamily): { program: Program; matched: string } | undefined {
  for (const q of QUALIFIER_AFTER) {
    if (q.family !== family) continue;
    const m = q.re.exec(text.s.slice(span.end));
    if (!m) continue;
    const end = span.end + m[0].length;
    blank(text, span.start, end);
    return { program: q.program, matched: question.slice(span.start, end).trim() };
  }
  for (const q of QUALIFIER_BEFORE) {
    if (q.family !== family) continue;
    const m = q.re.exec(text.s.slice(0, span.start));
    if (!m) continue;
    blank(text, m.index, span.end);
    return { program: q.program, matched: question.slice(m.index, span.end).trim() };
  }
  return undefined;
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
    const m = takeSpan(text, name);
    if (!m) continue;
    addState({ value: state, matched: m.matched, by: program ? 'program_name' : 'name' });
    // A Medicaid program name with a qualifier beside it names the program itself ("SoonerCare fee-for-service").
    const q = program === 'medicaid' ? qualify(text, question, m, 'medicaid') : undefined;
    if (q) addProgram({ value: q.program, matched: q.matched, by: 'program_name' });
    else if (program) addProgram({ value: program, matched: m.matched, by: 'program_name' });
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

  // Misspelt state names, when no state was named: phrases of three, two, then one word left in the question.
  if (!states.length) {
    const t = nameTables(model);
    const tokens = [...text.s.matchAll(/[A-Za-z]+/g)].map((m) => ({ w: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length }));
    for (let n = 3; n >= 1 && !states.length; n--) {
      for (let i = 0; i + n <= tokens.length; i++) {
        let letters = 0;
        let plausible = n === 1; // a misspelt name of two or three words keeps one of its words ("West Virgina")
        let adjacent = true; // words one space apart only
        for (let k = i; k < i + n; k++) {
          letters += tokens[k]!.w.length;
          if (n > 1 && t.multiWordNameWords.has(tokens[k]!.w)) plausible = true;
          if (k > i && tokens[k]!.start !== tokens[k - 1]!.end + 1) adjacent = false;
        }
        if (!plausible || !adjacent || !t.stateNear[n]?.[letters]) continue; // cheap tests first
        const run = tokens.slice(i, i + n);
        if (run.some((x) => text.low.slice(x.start, x.end) !== x.w)) continue; // part of a phrase already read
        const hits = closestStates(model, t, run.map((x) => x.w));
        if (!hits.length) continue;
        const matched = question.slice(run[0]!.start, run[n - 1]!.end);
        for (const st of hits) addState({ value: st, matched, by: 'fuzzy_name' });
        blank(text, run[0]!.start, run[n - 1]!.end);
      }
    }
  }

  // The words Medicaid and Medicare with a qualifier beside them ("Medicaid (fee-for-service)", "FFS Medicare").
  for (const m of [...text.s.matchAll(/(?<![\w-])(medicaid|medicare)(?![\w-])/gi)]) {
    if (text.s.slice(m.index, m.index + m[0].length) !== m[0]) continue; // taken with an earlier one
    const q = qualify(text, question, { start: m.index, end: m.index + m[0].length }, m[1]!.toLowerCase() as ProgramFamily);
    if (q) addProgram({ value: q.program, matched: q.matched, by: 'synonym' });
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
  // Misspelt drug names: a remaining word of 5+ letters within a small edit distance of a brand or generic (the
  // closest; on a tie, brands before generics, then in name order).
  if (!subjects.length) {
    const { drugNamesByLength } = nameTables(model);
    const remaining = new Set([...text.s.matchAll(/[A-Za-z]{5,}/g)].map((m) => m[0]).filter((w) => !COMMON.has(w.toLowerCase())));
    for (const w of remaining) {
      const q = squash(w);
      const budget = editBudget(q.length);
      let best: { key: string; by: 'fuzzy_brand' | 'fuzzy_generic'; order: number; d: number } | undefined;
      for (let len = q.length - budget; len <= q.length + budget; len++) {
        for (const n of drugNamesByLength.get(len) ?? []) {
          const d = distance(q, n.key);
          if (d <= budget && (!best || d < best.d || (d === best.d && n.order < best.order))) best = { ...n, d };
        }
      }
      if (!best) continue;
      const hits = (best.by === 'fuzzy_brand' ? ix.byBrand : ix.byGeneric).get(best.key) ?? [];
      for (const h of hits) addSubject({ kind: 'drug', code: h.doc.drugClass, matched: w, by: best.by });
    }
  }
  return { states, programs, subjects, unknownCodes: unknown, rest: text.s.replace(/\s+/g, ' ').trim() };
}

/** Common words of 5+ letters that must never be read as a misspelt drug name. */
const COMMON = new Set(
  'about above after again against authorization authorisation before being below between could coverage covered does doing during every first first from getting having medicaid medicare their there these thing those through under until usually where which while would patient patients member members prior require required requires requirement doctor physician approval approved denied denial state states program plans planning appeal appeals cover covers insurance therapy treatment drugs drug medication medications service services needs prescription need needed someone there'.split(' '),
);
