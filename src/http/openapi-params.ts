// Reusable OpenAPI parameter objects.
import { DRUG_CLASSES, PROGRAMS, SERVICE_CATEGORIES } from '../domain/vocabulary.js';

export const stateParam = (required = true) => ({
  name: 'state',
  in: 'query',
  required,
  description: 'USPS code of a state or DC, in upper case (lower case is a 400)',
  schema: { type: 'string', pattern: '^[A-Z]{2}$' },
  example: 'TX',
});
export const programParam = {
  name: 'program',
  in: 'query',
  required: true,
  description: 'Program. Aliases accepted on input: ma, dual, medicare, partd, mco, ffs.',
  schema: { type: 'string', enum: [...PROGRAMS] },
  example: 'medicaid_mco',
};
export const drugParam = {
  name: 'drug',
  in: 'query',
  required: false,
  description: 'Drug class code; exactly one of drug or service. Alias: drug_class.',
  schema: { type: 'string', enum: [...DRUG_CLASSES] },
  example: 'hepatitis_c',
};
export const serviceParam = {
  name: 'service',
  in: 'query',
  required: false,
  description: 'Service category; exactly one of drug or service. Aliases: category, service_category.',
  schema: { type: 'string', enum: [...SERVICE_CATEGORIES] },
};
// The aliases show no example: an example request names the subject once.
const { example: _drugExample, ...drugNoExample } = drugParam;
export const drugClassAlias = { ...drugNoExample, name: 'drug_class', description: 'Alias of drug.' };
export const categoryAlias = { ...serviceParam, name: 'category', description: 'Alias of service.' };
