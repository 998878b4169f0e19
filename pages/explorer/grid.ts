// The state x subject table. One cell per (jurisdiction, subject) as a button; a roving tabindex keeps the table a
// single Tab stop and arrow keys, Home and End move between cells (the ARIA grid keyboard model), Enter opens one.
import type { CellStatus, CoverageGrid } from './api.js';
import { h } from './dom.js';

export interface GridView {
  columns: number[];
  rows: CoverageGrid['states'];
  status: 'all' | CellStatus;
}

export interface CellRef {
  state: string;
  name: string;
  subject: CoverageGrid['subjects'][number];
  status: CellStatus;
}

const GLYPH: Record<CellStatus, string> = { verified: '✓', sample: 'S', gap: '·' };
const WORD: Record<CellStatus, string> = { verified: 'verified', sample: 'sample (illustrative)', gap: 'gap: no verified rule' };

export function renderGrid(table: HTMLTableElement, grid: CoverageGrid, view: GridView, caption: string, onOpen: (c: CellRef) => void): void {
  const buttons: (HTMLButtonElement | null)[][] = [];
  const head = h(
    'tr',
    {},
    h('th', { scope: 'col', class: 'corner' }, 'State'),
    h('th', { scope: 'col', class: 'count' }, h('span', {}, 'Verified')),
    view.columns.map((i) => h('th', { scope: 'col', class: `subject ${grid.subjects[i]!.kind}`, title: grid.subjects[i]!.label }, h('span', {}, grid.subjects[i]!.label))),
  );
  const body = view.rows.map((row, r) => {
    buttons[r] = [];
    const verified = view.columns.filter((i) => row.cells[i] === 'verified').length;
    return h(
      'tr',
      { 'data-state': row.state },
      h('th', { scope: 'row', title: row.name }, row.state),
      h('td', { class: 'count' }, String(verified)),
      view.columns.map((i, c) => {
        const status = row.cells[i]!;
        const subject = grid.subjects[i]!;
        if (view.status !== 'all' && status !== view.status) {
          buttons[r]![c] = null;
          return h('td', { class: 'filtered' });
        }
        // A rule saying the program does not cover the subject is verified too, but reads apart: never a plain tick.
        const excluded = status !== 'gap' && row.not_covered.includes(subject.code);
        const who = status !== 'gap' ? row.applies_to?.[subject.code] : undefined;
        const b = h(
          'button',
          { type: 'button', class: `cell ${status}${excluded ? ' not-covered' : ''}`, tabindex: -1, 'data-state': row.state, 'data-subject': subject.code, 'data-status': status, 'aria-label': `${row.name}, ${subject.label}: ${WORD[status]}${excluded ? ', not covered by the program' : ''}${who ? `, for ${who} only` : ''}`, ...(who ? { title: `For ${who} only` } : {}) },
          excluded ? '✕' : GLYPH[status],
        );
        b.addEventListener('click', () => onOpen({ state: row.state, name: row.name, subject, status }));
        buttons[r]![c] = b;
        return h('td', {}, b);
      }),
    );
  });
  table.replaceChildren(h('caption', {}, caption), h('thead', {}, head), h('tbody', {}, body));
  const first = buttons.flat().find((b): b is HTMLButtonElement => b !== null);
  if (first) first.tabIndex = 0;

  table.onkeydown = (ev: KeyboardEvent) => {
    const target = ev.target as HTMLElement;
    if (!(target instanceof HTMLButtonElement)) return;
    const r = buttons.findIndex((row) => row.includes(target));
    const c = buttons[r]?.indexOf(target) ?? -1;
    if (r < 0 || c < 0) return;
    const step = (dr: number, dc: number): HTMLButtonElement | null => {
      for (let rr = r + dr, cc = c + dc; rr >= 0 && rr < buttons.length && cc >= 0 && cc < (buttons[rr]?.length ?? 0); rr += dr, cc += dc) {
        const b = buttons[rr]![cc];
        if (b) return b;
      }
      return null;
    };
    const rowButtons = buttons[r]!.filter((b): b is HTMLButtonElement => b !== null);
    const next =
      ev.key === 'ArrowRight' ? step(0, 1)
      : ev.key === 'ArrowLeft' ? step(0, -1)
      : ev.key === 'ArrowDown' ? step(1, 0)
      : ev.key === 'ArrowUp' ? step(-1, 0)
      : ev.key === 'Home' ? rowButtons[0] ?? null
      : ev.key === 'End' ? rowButtons[rowButtons.length - 1] ?? null
      : undefined;
    if (next === undefined) return;
    ev.preventDefault();
    if (!next) return;
    target.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  };
}
