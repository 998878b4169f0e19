// The CQL libraries of the DTR questionnaires as FHIR Library resources: the CQL text (cql/*.cql) and the ELM JSON
// the reference translator produced (cql/elm/*.json, committed; scripts/cql/compile.sh regenerates it). Read once
// from the repository's cql/ folder, found upward from this module so it works from src/ (tsx) and dist/src/.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Library, RelatedArtifact } from 'fhir/r4';

export interface CqlLibrary {
  name: string;
  version: string;
  cql: string;
  elm: string;
  /** Names of the libraries its ELM includes (FHIRHelpers, DTRCommon...). */
  includes: string[];
}

function cqlDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    if (existsSync(join(dir, 'cql', 'elm'))) return join(dir, 'cql');
    dir = dirname(dir);
  }
  throw new Error('cql/elm not found above the DTR module: the CQL libraries ship with the service');
}

let loaded: Map<string, CqlLibrary> | undefined;

/** Every library with its CQL and ELM, by name. */
export function cqlLibraries(): Map<string, CqlLibrary> {
  if (loaded) return loaded;
  const dir = cqlDir();
  const out = new Map<string, CqlLibrary>();
  for (const file of readdirSync(join(dir, 'elm')).filter((f) => f.endsWith('.json')).sort()) {
    const name = file.slice(0, -'.json'.length);
    const elm = readFileSync(join(dir, 'elm', file), 'utf8');
    const lib = (JSON.parse(elm) as { library: { identifier: { id: string; version: string }; includes?: { def?: { path: string }[] } } }).library;
    const source = [join(dir, `${name}.cql`), join(dir, 'elm', `${name}.cql`)].find((p) => existsSync(p));
    if (!source) throw new Error(`No CQL source for ${name}`);
    out.set(name, { name, version: lib.identifier.version, cql: readFileSync(source, 'utf8'), elm, includes: (lib.includes?.def ?? []).map((d) => d.path) });
  }
  loaded = out;
  return out;
}

export function cqlLibrary(name: string): CqlLibrary | undefined {
  return cqlLibraries().get(name);
}

/**
 * The library and, recursively, every library it depends on, each once and after every library that includes it
 * (ordered by longest include path from the root, then name): DTRDevice, DTRCommon, FHIRHelpers.
 */
export function withDependencies(name: string): CqlLibrary[] {
  const depth = new Map<string, number>();
  const visit = (n: string, d: number): void => {
    const lib = cqlLibrary(n);
    if (!lib || (depth.get(n) ?? -1) >= d) return;
    depth.set(n, d);
    for (const inc of lib.includes) visit(inc, d + 1);
  };
  visit(name, 0);
  return [...depth].sort(([a, da], [b, db]) => da - db || a.localeCompare(b)).map(([n]) => cqlLibrary(n)!);
}

export const libraryUrl = (base: string, name: string): string => `${base}/v1/Library/${name}`;

// The base64 content of each library, computed once: FHIRHelpers' ELM alone is about 470 kB of text. The ELM is
// sent without the translator's indentation (the same JSON value, a third smaller).
const encoded = new Map<string, { cql: string; elm: string }>();
function contentOf(lib: CqlLibrary): { cql: string; elm: string } {
  let c = encoded.get(lib.name);
  if (!c) {
    c = { cql: Buffer.from(lib.cql, 'utf8').toString('base64'), elm: Buffer.from(JSON.stringify(JSON.parse(lib.elm)), 'utf8').toString('base64') };
    encoded.set(lib.name, c);
  }
  return c;
}

/** The FHIR Library: both representations (text/cql and application/elm+json), dependencies as depends-on. */
export function toLibraryResource(lib: CqlLibrary, base: string, date: string): Library {
  const relatedArtifact: RelatedArtifact[] = lib.includes
    .map((n) => cqlLibrary(n))
    .filter((d): d is CqlLibrary => !!d)
    .map((d) => ({ type: 'depends-on', display: `${d.name} ${d.version}`, resource: `${libraryUrl(base, d.name)}|${d.version}` }));
  return {
    resourceType: 'Library',
    id: lib.name,
    text: {
      status: 'generated',
      div: `<div xmlns="http://www.w3.org/1999/xhtml"><p>CQL library ${lib.name} ${lib.version} (CQL and ELM JSON)${relatedArtifact.length ? `, depends on ${relatedArtifact.map((r) => r.display).join(', ')}` : ''}.</p></div>`,
    },
    url: libraryUrl(base, lib.name),
    version: lib.version,
    name: lib.name,
    title: lib.name === 'FHIRHelpers' ? 'FHIRHelpers (HL7 FHIR R4 type conversions for CQL)' : `${lib.name}: pre-population logic for prior-authorization questionnaires`,
    status: 'active',
    type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/library-type', code: 'logic-library' }] },
    date,
    ...(relatedArtifact.length ? { relatedArtifact } : {}),
    content: [
      { contentType: 'text/cql', data: contentOf(lib).cql },
      { contentType: 'application/elm+json', data: contentOf(lib).elm },
    ],
  };
}
