// Spec 2.5 / 4.3 rule 5: only the drug classes and service categories with a published rule for the pair.
import { DRUG_CLASSES, DRUG_CLASS_LABELS, SERVICE_CATEGORIES, SERVICE_CATEGORY_LABELS, type Program } from '../domain/vocabulary.js';
import { ruleKey, type ReadModel } from '../corpus/read-model.js';

export interface LookupOptions {
  drugs: { val: string; label: string }[];
  services: { val: string; label: string }[];
}

export function lookupOptions(model: ReadModel, state: string, program: Program): LookupOptions {
  return {
    drugs: DRUG_CLASSES.filter((c) => model.rules.has(ruleKey(state, program, 'drug', c))).map((c) => ({
      val: c,
      label: DRUG_CLASS_LABELS[c],
    })),
    services: SERVICE_CATEGORIES.filter((c) => model.rules.has(ruleKey(state, program, 'service', c))).map((c) => ({
      val: c,
      label: SERVICE_CATEGORY_LABELS[c],
    })),
  };
}
