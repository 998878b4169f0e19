// The coverage explorer: filters -> map and grid for one program, from public JSON (/v1/manifest, /v1/coverage);
// a cell opens its detail; "Recent changes" reads the change feed. Filters live in the query string (shareable);
// the API key never does.
import { PROGRAM_LABELS, type Program } from '../../src/domain/vocabulary.js';
import { publicJson, type CellStatus, type CoverageGrid, type Manifest } from './api.js';
import { renderChanges } from './changes.js';
import { createDetail } from './detail.js';
import { byId, h } from './dom.js';
import { renderGrid, type CellRef } from './grid.js';
import { drawMap, type MapShade } from './map.js';

const f = {
  program: byId<HTMLSelectElement>('f-program'),
  kind: byId<HTMLSelectElement>('f-kind'),
  subject: byId<HTMLSelectElement>('f-subject'),
  status: byId<HTMLSelectElement>('f-status'),
  state: byId<HTMLSelectElement>('f-state'),
};
const summary = byId('summary');
const legend = byId('legend');
const table = byId<HTMLTableElement>('grid');
const detail = createDetail(() => f.program.value);
const grids = new Map<string, CoverageGrid>();
let grid: CoverageGrid;

const programLabel = (p: string): string => PROGRAM_LABELS[p as Program] ?? p;
const STATUS_WORD: Record<CellStatus, string> = { verified: 'verified', sample: 'sample', gap: 'gap' };
const BINS: { cls: string; label: string; test: (share: number, n: number) => boolean }[] = [
  { cls: 'shade-0', label: 'none verified', test: (_s, n) => n === 0 },
  { cls: 'shade-1', label: 'up to 10%', test: (s) => s <= 0.1 },
  { cls: 'shade-2', label: 'up to 25%', test: (s) => s <= 0.25 },
  { cls: 'shade-3', label: 'up to 50%', test: (s) => s <= 0.5 },
  { cls: 'shade-4', label: 'over 50%', test: () => true },
];

async function gridFor(program: string): Promise<CoverageGrid> {
  let g = grids.get(program);
  if (!g) grids.set(program, (g = await publicJson<CoverageGrid>(`/v1/coverage?program=${encodeURIComponent(program)}`)));
  return g;
}

function columns(): number[] {
  return grid.subjects.flatMap((s, i) => ((f.kind.value === 'all' || s.kind === f.kind.value) && (!f.subject.value || s.code === f.subject.value) ? [i] : []));
}

function fillSubjects(): void {
  const keep = f.subject.value;
  const subjects = grid.subjects.filter((s) => f.kind.value === 'all' || s.kind === f.kind.value);
  f.subject.replaceChildren(h('option', { value: '' }, 'All subjects'), ...subjects.map((s) => h('option', { value: s.code }, s.label)));
  f.subject.value = subjects.some((s) => s.code === keep) ? keep : '';
}

function fillStatuses(): void {
  const keep = f.status.value || 'all';
  const statuses: CellStatus[] = grid.served_statuses.includes('sample') ? ['verified', 'sample', 'gap'] : ['verified', 'gap'];
  f.status.replaceChildren(h('option', { value: 'all' }, 'Any status'), ...statuses.map((s) => h('option', { value: s }, STATUS_WORD[s])));
  f.status.value = statuses.includes(keep as CellStatus) ? keep : 'all';
}

function drawLegend(single: boolean): void {
  const items = single
    ? (grid.served_statuses.includes('sample') ? ['verified', 'sample', 'gap'] : ['verified', 'gap']).map((s) => ({ cls: s, label: STATUS_WORD[s as CellStatus] }))
    : BINS;
  legend.replaceChildren(h('span', { class: 'legend-title' }, single ? 'This subject:' : 'Share of subjects verified:'), ...items.map((b) => h('span', { class: 'legend-item' }, h('span', { class: `swatch ${b.cls}`, 'aria-hidden': 'true' }), b.label)));
}

let map: ReturnType<typeof drawMap>;

function update(): void {
  const cols = columns();
  const single = cols.length === 1 ? grid.subjects[cols[0]!]! : undefined;
  const verified = grid.states.reduce((n, row) => n + cols.filter((i) => row.cells[i] === 'verified').length, 0);
  const sample = grid.states.reduce((n, row) => n + cols.filter((i) => row.cells[i] === 'sample').length, 0);
  const cells = grid.states.length * cols.length;
  summary.replaceChildren(
    h('strong', { id: 'verified-count', 'data-program': grid.program, 'data-verified': verified }, String(verified)),
    ` of ${cells} state × subject combinations verified in ${programLabel(grid.program)} (${cells ? Math.round((1000 * verified) / cells) / 10 : 0}%)`,
    grid.served_statuses.includes('sample') ? `; ${sample} more served as illustrative samples.` : '.',
  );
  map.shade((usps) => {
    const row = grid.states.find((s) => s.state === usps);
    if (!row) return { cls: 'shade-0', label: usps };
    if (single) {
      const st = row.cells[cols[0]!]!;
      return { cls: st, label: `${row.name}: ${single.label}: ${STATUS_WORD[st]}` };
    }
    const n = cols.filter((i) => row.cells[i] === 'verified').length;
    const bin = BINS.find((b) => b.test(cols.length ? n / cols.length : 0, n))!;
    return { cls: bin.cls, label: `${row.name}: ${n} of ${cols.length} subjects verified` } satisfies MapShade;
  }, f.state.value);
  drawLegend(single !== undefined);
  const status = f.status.value as 'all' | CellStatus;
  const rows = grid.states.filter((row) => (!f.state.value || row.state === f.state.value) && (status === 'all' || cols.some((i) => row.cells[i] === status)));
  renderGrid(table, grid, { columns: cols, rows, status }, `${programLabel(grid.program)}: ${rows.length} jurisdiction${rows.length === 1 ? '' : 's'} × ${cols.length} subject${cols.length === 1 ? '' : 's'}. ✓ verified, S sample, · gap. Choose a cell for the rule or to be told when it is covered.`, (c: CellRef) => detail.open(c));
  const q = new URLSearchParams({ program: grid.program });
  for (const k of ['kind', 'subject', 'status', 'state'] as const) if (f[k].value && f[k].value !== 'all') q.set(k, f[k].value);
  history.replaceState(null, '', `?${q}${location.hash}`);
}

async function loadProgram(): Promise<void> {
  grid = await gridFor(f.program.value);
  fillSubjects();
  fillStatuses();
  update();
}

async function main(): Promise<void> {
  const manifest = await publicJson<Manifest>('/v1/manifest');
  byId('notice').textContent = manifest.notice;
  const v = manifest.coverage.verified;
  byId('overall').textContent = `${v.rules} of ${v.of_combinations} combinations verified across all programs (${v.percent}%); ${v.outside_program_combinations} of them lie outside their program's benefit (Part D covers drugs, not other services) and will never have a rule.`;
  const start = new URLSearchParams(location.search);
  const programs = manifest.coverage.programs;
  f.program.replaceChildren(...programs.map((p) => h('option', { value: p }, `${programLabel(p)} (${v.by_program[p] ?? 0} verified)`)));
  // A first visit opens on the program with the most verified rules, so there is something to see.
  const best = [...programs].sort((a, b) => (v.by_program[b] ?? 0) - (v.by_program[a] ?? 0))[0]!;
  f.program.value = programs.includes(start.get('program') ?? '') ? start.get('program')! : best;
  f.kind.value = ['drug', 'service'].includes(start.get('kind') ?? '') ? start.get('kind')! : 'all';
  map = drawMap(byId('map') as unknown as SVGSVGElement, (usps) => {
    f.state.value = f.state.value === usps ? '' : usps;
    update();
  });
  grid = await gridFor(f.program.value);
  f.state.replaceChildren(h('option', { value: '' }, 'All jurisdictions'), ...grid.states.map((s) => h('option', { value: s.state }, `${s.name} (${s.state})`)));
  f.state.value = grid.states.some((s) => s.state === start.get('state')) ? start.get('state')! : '';
  fillSubjects();
  f.subject.value = start.get('subject') ?? '';
  if (f.subject.selectedIndex < 0) f.subject.value = '';
  fillStatuses();
  f.status.value = start.get('status') ?? 'all';
  if (f.status.selectedIndex < 0) f.status.value = 'all';
  update();

  f.program.addEventListener('change', () => void loadProgram());
  f.kind.addEventListener('change', () => {
    fillSubjects();
    update();
  });
  for (const el of [f.subject, f.status, f.state]) el.addEventListener('change', update);

  const feedState = byId<HTMLSelectElement>('changes-state');
  feedState.replaceChildren(h('option', { value: '' }, 'All jurisdictions'), ...grid.states.map((s) => h('option', { value: s.state }, `${s.name} (${s.state})`)));
  const showChanges = (): Promise<void> =>
    renderChanges(byId('feed'), byId('feed-status'), feedState.value, async (t) => {
      f.program.value = t.program;
      await loadProgram();
      const row = grid.states.find((s) => s.state === t.state);
      const subject = grid.subjects.find((s) => s.kind === t.kind && s.code === t.code);
      if (row && subject) detail.open({ state: row.state, name: row.name, subject, status: row.cells[grid.subjects.indexOf(subject)]! });
    });
  feedState.addEventListener('change', () => void showChanges());
  await showChanges();
  document.body.dataset.ready = 'true';
}

main().catch((err: unknown) => {
  byId('notice').textContent = `The explorer could not load its data: ${(err as Error).message}`;
  document.body.dataset.ready = 'error';
});
