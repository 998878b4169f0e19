// What a DTR client does with a questionnaire package, as tests need it: run the package's own Libraries (the ELM
// JSON decoded from the Library resources, not the repository's files) with cql-execution and cql-exec-fhir against
// a patient's record, and turn each item's initialExpression result into a QuestionnaireResponse answer.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import cql from 'cql-execution';
import cqlfhir from 'cql-exec-fhir';
import type { Bundle, Library, Questionnaire, QuestionnaireItem, QuestionnaireResponseItemAnswer } from 'fhir/r4';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A realistic patient record (COPD with hypoxia, rheumatoid arthritis; oximetry, blood gas, visits, orders). */
export const patientRecord = (): Bundle => JSON.parse(readFileSync(fileURLToPath(new URL('./patient-record.json', import.meta.url)), 'utf8')) as Bundle;
export const recordResource = (id: string): Any => patientRecord().entry!.find((e) => e.resource?.id === id)!.resource as Any;

/** The ELM of every Library in a package bundle, by library name. */
export function elmOf(bundle: Bundle): Record<string, Any> {
  const out: Record<string, Any> = {};
  for (const e of bundle.entry ?? []) {
    if (e.resource?.resourceType !== 'Library') continue;
    const lib = e.resource as Library;
    const elm = lib.content?.find((c) => c.contentType === 'application/elm+json');
    if (elm?.data) out[lib.name!] = JSON.parse(Buffer.from(elm.data, 'base64').toString('utf8'));
  }
  return out;
}

/** Every definition of a library evaluated for the record's patient on a given day. */
export async function evaluate(elm: Record<string, Any>, library: string, record: Bundle, at: string): Promise<Any> {
  const lib = new cql.Library(elm[library], new cql.Repository(elm));
  const source = cqlfhir.PatientSource.FHIRv401();
  source.loadBundles([record]);
  const results = await new cql.Executor(lib).exec(source, cql.DateTime.parse(at) ?? undefined);
  const ids = Object.keys(results.patientResults);
  if (ids.length !== 1) throw new Error(`expected one patient, got ${ids.length}`);
  return results.patientResults[ids[0]!];
}

/** `"Library"."Definition"` of an item's extension (the form DTR asks for). */
export function expressionOf(item: QuestionnaireItem, url: string): { library: string; name: string } | undefined {
  const e = item.extension?.find((x) => x.url === url)?.valueExpression;
  const m = e?.language === 'text/cql' ? /^"([^"]+)"\."([^"]+)"$/.exec(e.expression ?? '') : null;
  return m ? { library: m[1]!, name: m[2]! } : undefined;
}

/** A CQL value as the answers of an item of the given type (what a DTR client stores). */
export function toAnswers(item: QuestionnaireItem, value: unknown): QuestionnaireResponseItemAnswer[] {
  if (value === null || value === undefined) return [];
  const values = Array.isArray(value) ? value : [value];
  return values.map((v: Any) => {
    switch (item.type) {
      case 'boolean':
        return { valueBoolean: v as unknown as boolean };
      case 'decimal':
        return { valueDecimal: Number(v) };
      case 'integer':
        return { valueInteger: Number(v) };
      case 'date':
        return { valueDate: String(v) };
      case 'choice':
      case 'open-choice':
        return { valueCoding: { system: v.system, code: v.code, ...(v.display ? { display: v.display } : {}) } };
      default:
        return { valueString: String(v) };
    }
  });
}

/** Every item (nested too) of a questionnaire, in order. */
export const allItems = (q: Questionnaire | { item?: QuestionnaireItem[] }): QuestionnaireItem[] => (q.item ?? []).flatMap((it) => [it, ...allItems(it)]);
