// The `region` of a state's usdf-InsurancePlanLocation: its boundary as GeoJSON (location-boundary-geojson), as the
// IG's StateOfCTLocation example carries it. The shapes are the U.S. Census Bureau's cartographic state boundaries,
// 2017 edition, via us-atlas (state-boundaries.json, written by scripts/usdf/state-boundaries.ts).
import boundaries from './state-boundaries.json' with { type: 'json' };
import type { Extension } from '../r4.js';

export const LOCATION_BOUNDARY_GEOJSON = 'http://hl7.org/fhir/StructureDefinition/location-boundary-geojson';

const STATES = boundaries.states as Record<string, { name: string; fips: string; geometry: unknown }>;

/** The region extension of a state (USPS code), or none when we hold no boundary for it. */
export function regionOf(state: string): Extension | undefined {
  const b = STATES[state];
  if (!b) return undefined;
  const geojson = { type: 'Feature', properties: { STATE: b.fips, NAME: b.name }, geometry: b.geometry };
  return {
    url: LOCATION_BOUNDARY_GEOJSON,
    valueAttachment: { contentType: 'application/geo+json', data: Buffer.from(JSON.stringify(geojson)).toString('base64'), title: `GeoJSON outline of ${b.name} (${boundaries.source})` },
  };
}
