// The US map: the 51 jurisdictions' real shapes from us-atlas (Census cartographic boundaries, already projected to
// Albers USA at 975 x 610), drawn once as SVG paths by d3-geo; shading is a class per path, changed on each filter.
import { geoPath } from 'd3-geo';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import atlas from 'us-atlas/states-albers-10m.json';
import { FIPS_TO_USPS } from './fips.js';

const SVG = 'http://www.w3.org/2000/svg';

export interface MapShade {
  /** A CSS class (shade-0..4, or verified/sample/gap) and the text a pointer or screen-reader user reads. */
  cls: string;
  label: string;
}

export interface UsMap {
  shade(byState: (usps: string) => MapShade, selected: string): void;
}

export function drawMap(svg: SVGSVGElement, onPick: (usps: string) => void): UsMap {
  const topology = atlas as unknown as Topology<{ states: GeometryCollection<{ name: string }> }>;
  const states = feature(topology, topology.objects.states);
  const path = geoPath();
  const paths = new Map<string, { el: SVGPathElement; title: SVGTitleElement }>();
  const group = document.createElementNS(SVG, 'g');
  for (const f of states.features) {
    const usps = FIPS_TO_USPS[String(f.id)];
    if (!usps) continue;
    const el = document.createElementNS(SVG, 'path');
    el.setAttribute('d', path(f) ?? '');
    el.setAttribute('class', 'state');
    el.dataset.state = usps;
    const title = document.createElementNS(SVG, 'title');
    el.append(title);
    el.addEventListener('click', () => onPick(usps));
    group.append(el);
    paths.set(usps, { el, title });
  }
  svg.append(group);
  return {
    shade(byState, selected) {
      for (const [usps, { el, title }] of paths) {
        const s = byState(usps);
        el.setAttribute('class', `state ${s.cls}${usps === selected ? ' selected' : ''}`);
        title.textContent = s.label;
      }
      // The selected state is drawn last so its outline is not covered by its neighbours.
      const sel = paths.get(selected);
      if (sel) sel.el.parentNode?.append(sel.el);
    },
  };
}
