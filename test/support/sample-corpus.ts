// The WHOLE generated sample corpus (fixtures/, built by `npm run build`) as the read model's input documents.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CorpusDocuments } from '../../src/corpus/read-model.js';

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const dir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures');
const read = (name: string): Any[] => readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

/** Rules, jurisdictions, payers, drugs and code mappings of the sample corpus (no events or topics). */
export function sampleCorpusDocuments(): CorpusDocuments {
  return {
    rules: read('rules.ndjson'),
    jurisdictions: read('jurisdictions.ndjson'),
    payers: read('payers.ndjson'),
    drugs: read('drugs.ndjson'),
    codeMappings: read('code-mappings.ndjson'),
    events: [],
    topics: [],
  };
}
