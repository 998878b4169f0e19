// Writes src/fhir/usdf/state-boundaries.json: the GeoJSON outline of each state and DC, keyed by USPS code, for the
// usdf-InsurancePlanLocation `region` extension (location-boundary-geojson), as the IG's own StateOfCTLocation
// example carries one. Source: the U.S. Census Bureau's cartographic state boundaries, 2017 edition, as
// redistributed (quantized and simplified, unprojected) by the us-atlas package (states-10m.json; its README names
// https://www2.census.gov/geo/tiger/GENZ2017/shp/); the explorer draws the same shapes. States are matched by the
// name in fixtures/jurisdictions.ndjson; coordinates are rounded to 5 decimals (about a metre; the quantization is
// coarser). Run after a us-atlas upgrade: npx tsx scripts/usdf/state-boundaries.ts
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

const root = fileURLToPath(new URL('../../', import.meta.url));
const require = createRequire(import.meta.url);
const atlas = JSON.parse(readFileSync(require.resolve('us-atlas/states-10m.json'), 'utf8')) as Topology;
const version = (JSON.parse(readFileSync(require.resolve('us-atlas/package.json'), 'utf8')) as { version: string }).version;
const names = new Map<string, string>(
  readFileSync(`${root}fixtures/jurisdictions.ndjson`, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; name: string })
    .map((j) => [j.name, j.id]),
);
const round = (v: unknown): unknown => (typeof v === 'number' ? Math.round(v * 1e5) / 1e5 : Array.isArray(v) ? v.map(round) : v);
const states = feature(atlas, atlas.objects.states as GeometryCollection<{ name: string }>);
const out: Record<string, { name: string; fips: string; geometry: unknown }> = {};
for (const f of states.features) {
  const code = names.get(f.properties.name);
  if (!code) continue; // territories we do not serve
  out[code] = { name: f.properties.name, fips: String(f.id), geometry: { type: f.geometry.type, coordinates: round((f.geometry as { coordinates: unknown }).coordinates) } };
}
const sorted = Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(`${root}src/fhir/usdf/state-boundaries.json`, `${JSON.stringify({ source: `U.S. Census Bureau cartographic state boundaries, 2017 edition (GENZ2017), via us-atlas ${version} states-10m.json`, states: sorted })}\n`);
console.log(`${Object.keys(sorted).length} jurisdictions written`);
