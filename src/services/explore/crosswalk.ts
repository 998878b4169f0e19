// Endpoint 10: the drug crosswalk (drug class <-> generic and brand names, RxNorm where the crosswalk knows it).
import type { DrugCrosswalkDoc } from '../../domain/documents.js';
import { DRUG_CLASS_LABELS, DRUG_CLASSES, isDrugClass, type DrugClass } from '../../domain/vocabulary.js';
import type { ReadModel } from '../../corpus/read-model.js';
import { closest, squash } from './normalize.js';

export type CrosswalkBy = 'class' | 'brand' | 'generic';
export type CrosswalkFormat = 'flat' | 'grouped';

export interface CrosswalkRow {
  drug_class: DrugClass;
  drug_class_label: string;
  generic: string;
  brands: string[];
  rxnorm: { ingredient: string | null; scd: string[] };
  /** Which name of the row the query matched (the class code, a brand or the generic). */
  matched_on: string;
}

export type CrosswalkOutcome =
  | { kind: 'found'; body: Record<string, unknown> }
  | { kind: 'not_found'; suggestions: string[] };

interface Index {
  byClass: Map<string, DrugCrosswalkDoc[]>;
  byBrand: Map<string, { doc: DrugCrosswalkDoc; name: string }[]>;
  byGeneric: Map<string, { doc: DrugCrosswalkDoc; name: string }[]>;
  brandNames: string[];
  genericNames: string[];
}

const indexes = new WeakMap<ReadModel, Index>();

/** Lookup tables per read model, built once. */
export function crosswalkIndex(model: ReadModel): Index {
  let ix = indexes.get(model);
  if (ix) return ix;
  ix = { byClass: new Map(), byBrand: new Map(), byGeneric: new Map(), brandNames: [], genericNames: [] };
  const push = <T>(m: Map<string, T[]>, k: string, v: T) => m.set(k, [...(m.get(k) ?? []), v]);
  for (const d of model.drugs) {
    push(ix.byClass, squash(d.drugClass), d);
    push(ix.byGeneric, squash(d.generic), { doc: d, name: d.generic });
    // a combination generic also answers to each of its parts ("amphetamine/dextroamphetamine")
    for (const part of d.generic.split(/\s*[/+,]\s*|\s+and\s+/).filter((p) => p && p !== d.generic)) push(ix.byGeneric, squash(part), { doc: d, name: d.generic });
    for (const b of d.brands) push(ix.byBrand, squash(b), { doc: d, name: b });
  }
  ix.brandNames = [...new Set(model.drugs.flatMap((d) => d.brands))].sort();
  ix.genericNames = [...new Set(model.drugs.map((d) => d.generic))].sort();
  indexes.set(model, ix);
  return ix;
}

const toRow = (d: DrugCrosswalkDoc, matched: string): CrosswalkRow => ({
  drug_class: d.drugClass as DrugClass,
  drug_class_label: isDrugClass(d.drugClass) ? DRUG_CLASS_LABELS[d.drugClass] : d.drugClass,
  generic: d.generic,
  brands: [...d.brands],
  rxnorm: { ingredient: d.rxnorm?.ingredient ?? null, scd: [...(d.rxnorm?.scd ?? [])] },
  matched_on: matched,
});

/** Class codes also match by their label ("GLP-1 agonists for weight loss") and without underscores. */
function classOf(raw: string): DrugClass | undefined {
  const q = squash(raw);
  return DRUG_CLASSES.find((c) => squash(c) === q || squash(DRUG_CLASS_LABELS[c]) === q);
}

export function crosswalk(model: ReadModel, by: CrosswalkBy, value: string, format: CrosswalkFormat): CrosswalkOutcome {
  const ix = crosswalkIndex(model);
  let rows: CrosswalkRow[];
  if (by === 'class') {
    const c = classOf(value);
    rows = c ? (ix.byClass.get(squash(c)) ?? []).map((d) => toRow(d, c)) : [];
    if (!rows.length) return { kind: 'not_found', suggestions: c ? [] : closest(value, [...DRUG_CLASSES]) };
  } else {
    const hits = (by === 'brand' ? ix.byBrand : ix.byGeneric).get(squash(value)) ?? [];
    rows = hits.map((h) => toRow(h.doc, h.name));
    if (!rows.length) return { kind: 'not_found', suggestions: closest(value, by === 'brand' ? ix.brandNames : ix.genericNames) };
  }
  rows.sort((a, b) => a.drug_class.localeCompare(b.drug_class) || a.generic.localeCompare(b.generic));
  const query = { [by]: value };
  if (format === 'flat') return { kind: 'found', body: { query, format, count: rows.length, rows } };
  const groups = new Map<string, CrosswalkRow[]>();
  for (const r of rows) groups.set(r.drug_class, [...(groups.get(r.drug_class) ?? []), r]);
  return {
    kind: 'found',
    body: {
      query,
      format,
      count: rows.length,
      groups: [...groups].map(([drug_class, members]) => ({
        drug_class,
        drug_class_label: members[0]!.drug_class_label,
        members: members.map(({ generic, brands, rxnorm, matched_on }) => ({ generic, brands, rxnorm, matched_on })),
      })),
    },
  };
}
