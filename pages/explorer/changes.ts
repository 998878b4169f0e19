// "Recent changes": the change feed's JSON twin (/v1/watch/feed.json), newest first, optionally for one state; each
// rule change says what changed and links its source, and opens the rule in the explorer.
import { publicJson } from './api.js';
import { h, link } from './dom.js';

interface FeedItem {
  id: string;
  title?: string;
  date_published?: string;
  _prauth?: { action?: string; resource_type?: string; state?: string; program?: string; subject?: { kind: 'drug' | 'service'; code: string }; source_url?: string; changes?: string[]; at?: string };
}

export interface ChangeTarget {
  state: string;
  program: string;
  kind: 'drug' | 'service';
  code: string;
}

export async function renderChanges(list: HTMLElement, status: HTMLElement, state: string, onOpen: (t: ChangeTarget) => void): Promise<void> {
  status.textContent = 'Loading recent changes…';
  const q = new URLSearchParams({ limit: '30', ...(state ? { state } : {}) });
  let feed: { items: FeedItem[]; _prauth?: { total?: number } };
  try {
    feed = await publicJson(`/v1/watch/feed.json?${q}`);
  } catch (err) {
    status.textContent = `The change feed could not be read (${(err as Error).message}).`;
    list.replaceChildren();
    return;
  }
  const total = feed._prauth?.total ?? feed.items.length;
  status.textContent = `${total} change${total === 1 ? '' : 's'}${state ? ` in ${state}` : ''}; the ${Math.min(total, feed.items.length)} newest are listed.`;
  list.replaceChildren(
    ...feed.items.map((item) => {
      const p = item._prauth ?? {};
      const when = (p.at ?? item.date_published ?? '').slice(0, 10);
      let open: HTMLElement | null = null;
      if (p.resource_type === 'CoverageRule' && p.state && p.program && p.subject && p.action !== 'retired') {
        const target = { state: p.state, program: p.program, kind: p.subject.kind, code: p.subject.code };
        open = h('button', { type: 'button', class: 'secondary' }, 'Open in the explorer');
        open.addEventListener('click', () => onOpen(target));
      }
      return h(
        'li',
        { class: `change ${p.action ?? ''}` },
        h('p', { class: 'change-head' }, h('time', { datetime: when }, when), ' ', h('span', { class: 'badge' }, p.action ?? 'change'), ' ', item.title ?? ''),
        p.changes?.length ? h('ul', {}, p.changes.map((c) => h('li', {}, c))) : null,
        h('p', { class: 'change-links' }, p.source_url ? link(p.source_url, 'Source document') : null, open ? ' ' : null, open),
      );
    }),
  );
}
