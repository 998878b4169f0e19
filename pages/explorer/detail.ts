// A cell's detail in a modal <dialog> (focus moves in and back, Escape closes): the rule with its evidence, citations,
// last_verified and next steps once the user gives an API key; for a gap (or a sample rule) the "tell me when it is
// covered" form that POSTs /v1/notify-when-ready.
import { PROGRAM_LABELS, type Program } from '../../src/domain/vocabulary.js';
import { hasKey, notifyWhenReady, ruleLookup, setKey } from './api.js';
import { byId, h, link } from './dom.js';
import type { CellRef } from './grid.js';

type Json = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));
const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);

function ruleView(rule: Json, steps: Json[]): HTMLElement {
  const turnaround = (rule.turnaround ?? {}) as Json;
  const submission = (rule.submission ?? {}) as Json;
  const rows: [string, Node | string][] = [
    // An excluded subject is "not covered", never "PA not required".
    ['Prior authorization', rule.not_covered === true ? 'Not covered (no PA route; a claim will be denied)' : rule.pa_required ? `Required (${str(rule.pa_type).replace(/_/g, ' ')})` : 'Not required'],
    ['Status', str(rule.rule_status)],
    ['Last verified', h('time', { datetime: str(rule.last_verified), class: 'last-verified' }, str(rule.last_verified))],
    ['Confidence', str(rule.confidence)],
    ['Turnaround', `standard ${str(turnaround.standard_hours)} h, expedited ${str(turnaround.expedited_hours)} h${turnaround.basis ? ` (${str(turnaround.basis)})` : ''}`],
    ['Submit', submission.url ? link(submission.url, `${str(submission.target)} (${str(submission.channel)})`) : `${str(submission.target)} (${str(submission.channel)})`],
    ['Source', link(rule.source_url, str(rule.source_title) || str(rule.source_url), 'source-link')],
  ];
  const evidence = arr(rule.evidence);
  const docs = Array.isArray(rule.documentation) ? (rule.documentation as unknown[]).map(str) : [];
  return h(
    'div',
    { class: 'rule' },
    h('dl', {}, rows.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])),
    rule.notes ? h('p', {}, str(rule.notes)) : null,
    rule.caveat ? h('p', { class: 'caveat' }, `Caveat: ${str(rule.caveat)}`) : null,
    h('h3', {}, 'Evidence'),
    evidence.length
      ? h('ol', { class: 'evidence' }, evidence.map((e) => h('li', {}, link(e.source_url, str(e.title) || str(e.source_url)), ` — ${str(e.publisher)}; ${str(e.locator)}`, e.effective ? `; effective ${str(e.effective)}` : '', `; checked ${str(e.checked)}`)))
      : h('p', {}, 'No evidence items: this is not a verified rule.'),
    docs.length ? [h('h3', {}, 'Documentation'), h('ul', {}, docs.map((d) => h('li', {}, d)))] : null,
    steps.length
      ? [h('h3', {}, 'Next steps'), h('ol', { class: 'steps' }, steps.map((s) => h('li', {}, h('strong', {}, str(s.title)), h('ul', {}, (Array.isArray(s.items) ? (s.items as unknown[]) : []).map((i) => h('li', {}, str(i)))))))]
      : null,
  );
}

export function createDetail(program: () => string): { open(c: CellRef): void } {
  const dialog = byId<HTMLDialogElement>('detail');
  const title = byId('detail-title');
  const body = byId('detail-body');
  byId('detail-close').addEventListener('click', () => dialog.close());

  function notifyForm(c: CellRef): HTMLElement {
    const result = h('p', { role: 'status', class: 'result' });
    const input = h('input', { id: 'notify-contact', name: 'contact', type: 'text', required: true, autocomplete: 'email', 'aria-describedby': 'notify-hint', spellcheck: 'false' });
    const form = h(
      'form',
      { id: 'notify-form', class: 'stack' },
      h('h3', {}, 'Tell me when it is covered'),
      h('label', { for: 'notify-contact' }, 'E-mail address or mobile number'),
      input,
      h('p', { id: 'notify-hint', class: 'hint' }, 'A mobile number in international form, e.g. +15125550123, gets a text message. One message when a verified rule is published, with a link to stop.'),
      h('button', { type: 'submit' }, 'Tell me when it is covered'),
      result,
    );
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const contact = input.value.trim();
      result.textContent = 'Sending…';
      void notifyWhenReady({ state: c.state, program: program(), kind: c.subject.kind, subject: c.subject.code, contact, channel: contact.includes('@') ? 'email' : 'sms' }).then(({ status, body: b }) => {
        if (status === 200 && b.status === 'available') result.textContent = 'A verified rule exists already: nothing to wait for.';
        else if (status === 200) result.textContent = `Recorded${b.duplicate ? ' (you were already on the list)' : ''}. You will get one message when a verified rule is published.`;
        else result.textContent = `Not recorded: ${str(b.error) || `status ${status}`}`;
        result.dataset.outcome = status === 200 ? 'recorded' : 'refused';
      });
    });
    return form;
  }

  function keyForm(c: CellRef): HTMLElement {
    const input = h('input', { id: 'api-key', name: 'api-key', type: 'password', required: true, autocomplete: 'off', 'aria-describedby': 'key-hint', spellcheck: 'false' });
    const form = h(
      'form',
      { id: 'key-form', class: 'stack' },
      h('label', { for: 'api-key' }, 'API key'),
      input,
      h('p', { id: 'key-hint', class: 'hint' }, 'The rule itself needs a key (npx prauth keys create). It is kept in this page\'s memory only, sent in the x-api-key header, never put in the address or stored; reloading the page forgets it.'),
      h('button', { type: 'submit' }, 'Show the rule'),
    );
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      setKey(input.value);
      showRule(c);
    });
    return form;
  }

  function showRule(c: CellRef): void {
    const out = h('div', { 'aria-live': 'polite', 'aria-busy': 'true' }, h('p', {}, 'Loading the rule…'));
    body.replaceChildren(out, c.status === 'sample' ? notifyForm(c) : '');
    void ruleLookup(c.state, program(), c.subject.kind, c.subject.code).then(({ status, body: b }) => {
      out.removeAttribute('aria-busy');
      if (status === 200) {
        const forget = h('button', { type: 'button', class: 'secondary' }, 'Forget the key');
        forget.addEventListener('click', () => {
          setKey(undefined);
          render(c);
        });
        out.replaceChildren(ruleView((b.result ?? {}) as Json, arr(b.next_steps)), forget);
        return;
      }
      if (status === 401) setKey(undefined);
      out.replaceChildren(h('p', { role: 'alert' }, `${status === 401 ? 'The key was refused' : `The service answered ${status}`}: ${str(b.error)}`), status === 401 ? keyForm(c) : '');
    });
  }

  function render(c: CellRef): void {
    if (c.status === 'gap') body.replaceChildren(h('p', {}, 'No verified rule is published for this combination yet (the API answers 404 scope_gap).'), notifyForm(c));
    else if (hasKey()) showRule(c);
    else body.replaceChildren(h('p', {}, c.status === 'verified' ? 'A verified rule is published, with its evidence.' : 'An illustrative sample rule is served (not verified).'), keyForm(c), c.status === 'sample' ? notifyForm(c) : '');
  }

  return {
    open(c) {
      title.textContent = `${c.name} · ${PROGRAM_LABELS[program() as Program] ?? program()} · ${c.subject.label}`;
      render(c);
      if (!dialog.open) dialog.showModal();
      (body.querySelector('input, button') as HTMLElement | null)?.focus();
    },
  };
}
